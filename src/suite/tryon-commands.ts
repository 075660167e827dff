/**
 * The model and commands of the try-on state machine (fast-check model-based testing): start, sync
 * start, poll, replay, upload, pause, and the other account's reads. Commands pick try-ons and
 * images by index into the model, and `toString()` reads like a log line, because it becomes the
 * counterexample. Spec: States and transitions; Try-on fields; Authentication 6.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { Api } from './api.ts';
import { newIdempotencyKey } from './api.ts';
import type { ConformanceContext } from './conformance.ts';
import type { Actor } from './target.ts';

export type Status = 'pending' | 'success' | 'failed';

export interface ModelImage {
  readonly id: string;
  readonly role: 'person' | 'garment';
  /** Carries the generation-fails scenario marker. */
  readonly failing: boolean;
}

export interface ModelTryOn {
  readonly id: string;
  readonly key: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly failing: boolean;
  /** The last status the target showed. */
  status: Status;
  refunded: boolean;
}

export interface Model {
  readonly images: ModelImage[];
  readonly tryOns: ModelTryOn[];
  /** Starts this run may still make that can cost a credit. */
  startsLeft: number;
}

export interface Real {
  readonly t: ConformanceContext;
  readonly api: Api;
  readonly actor: Actor;
  readonly other: Actor | undefined;
  readonly photos: Photos;
}

export interface Photos {
  readonly person: Buffer;
  readonly failingPerson: Buffer;
  readonly garment: Buffer;
}

export interface Answer {
  readonly id?: unknown;
  readonly status?: unknown;
  readonly pollUrl?: unknown;
  readonly resultUrl?: unknown;
  readonly message?: unknown;
  readonly code?: unknown;
}

export type Command = fc.AsyncCommand<Model, Real>;

export const answerOf = (ex: Exchange): Answer => (ex.response?.json ?? {}) as Answer;
export const said = (ex: Exchange): string => `${ex.response?.status ?? ex.error} ${ex.response?.text ?? ''}`;
const at = <T>(list: readonly T[], pick: number): T => list[pick % list.length] as T;
const pollUrlOf = (id: string): string => `/api/v1/tryons/${id}`;

/** Checks one view of a try-on against the model and moves the model on. */
export function observe(real: Real, entry: ModelTryOn, answer: Answer, via: string): void {
  const where = `${via} of try-on ${entry.id}`;
  expect(answer.id, where).toBe(entry.id);
  expect(['pending', 'success', 'failed'], `${where}: status`).toContain(answer.status);
  const status = answer.status as Status;
  if (entry.status !== 'pending') expect(status, `${where}: a final state changed`).toBe(entry.status);
  if (status === 'success') expect(typeof answer.resultUrl, `${where}: resultUrl on success`).toBe('string');
  else expect(answer.resultUrl, `${where}: resultUrl while ${status}`).toBeNull();
  if (status === 'failed') expect(typeof answer.message === 'string' && answer.message.length > 0, `${where}: message on failed`).toBe(true);
  if (status !== 'pending') expect(status, `${where}: outcome of a ${entry.failing ? 'generation-fails' : 'normal'} try-on`).toBe(entry.failing ? 'failed' : 'success');
  entry.status = status;
  if (status === 'failed' && !entry.refunded) {
    entry.refunded = true;
    real.t.target.budget.giveBack(1);
  }
}

/** The create answer and the sync 202: `{id, status: pending, pollUrl}` with no resultUrl. */
function expectStarted(ex: Exchange, id: string, via: string): void {
  const answer = answerOf(ex);
  expect(answer.status, `${via}: status`).toBe('pending');
  expect(answer.pollUrl, `${via}: pollUrl`).toBe(pollUrlOf(id));
  expect('resultUrl' in answer, `${via}: resultUrl in a create answer`).toBe(false);
}

export class StartCommand implements Command {
  constructor(
    readonly scenario: 'normal' | 'generation-fails',
    readonly person: number,
    readonly garment: number,
    readonly sync: boolean,
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.startsLeft > 0 && m.images.some((i) => i.role === 'person' && i.failing === (this.scenario === 'generation-fails'));
  }
  async run(m: Model, r: Real): Promise<void> {
    const person = at(m.images.filter((i) => i.role === 'person' && i.failing === (this.scenario === 'generation-fails')), this.person);
    const garment = at(m.images.filter((i) => i.role === 'garment'), this.garment);
    fc.pre(r.t.target.budget.tryReserve(1));
    m.startsLeft--;
    const key = newIdempotencyKey();
    const body = { personImageId: person.id, garmentImageId: garment.id, consent: true };
    const ex = await r.api.start(r.actor, body, { idempotencyKey: key, sync: this.sync });
    const status = ex.response?.status;
    if (status !== 200 && status !== 202) r.t.target.budget.giveBack(1);
    expect(this.sync ? [200, 202] : [200], `${this}: ${said(ex)}`).toContain(status);
    const id = answerOf(ex).id;
    expect(typeof id, `${this}: id`).toBe('string');
    const entry: ModelTryOn = { id: id as string, key, body, failing: person.failing, status: 'pending', refunded: false };
    m.tryOns.push(entry);
    if (status === 200 && this.sync) {
      expect('pollUrl' in answerOf(ex), `${this}: pollUrl in a sync 200`).toBe(false);
      expect(answerOf(ex).status, `${this}: a sync 200 is final`).not.toBe('pending');
      observe(r, entry, answerOf(ex), 'sync 200');
    } else expectStarted(ex, entry.id, String(this));
  }
  toString(): string {
    const what = this.scenario === 'generation-fails' ? 'generation-fails person' : 'person';
    return `${this.sync ? 'POST /tryons/sync' : 'POST /tryons'} ${what} #${this.person} garment #${this.garment}`;
  }
}

class PollCommand implements Command {
  constructor(readonly pick: number) {}
  check(m: Readonly<Model>): boolean {
    return m.tryOns.length > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const entry = at(m.tryOns, this.pick);
    const ex = await r.api.get(r.actor, entry.id);
    expect(ex.response?.status, `${this}: ${said(ex)}`).toBe(200);
    expect('pollUrl' in answerOf(ex), `${this}: pollUrl in a read`).toBe(false);
    observe(r, entry, answerOf(ex), 'GET');
  }
  toString(): string {
    return `GET try-on #${this.pick}`;
  }
}

class ReplayCommand implements Command {
  constructor(
    readonly pick: number,
    readonly sync: boolean,
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.tryOns.length > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const entry = at(m.tryOns, this.pick);
    const ex = await r.api.start(r.actor, entry.body, { idempotencyKey: entry.key, sync: this.sync });
    const status = ex.response?.status;
    expect(this.sync ? [200, 202] : [200], `${this}: ${said(ex)}`).toContain(status);
    expect(answerOf(ex).id, `${this}: a replay names the same try-on`).toBe(entry.id);
    if (this.sync && status === 200) observe(r, entry, answerOf(ex), 'sync replay 200');
    else {
      if (this.sync) expect(entry.status, `${this}: 202 pending after the try-on was seen ${entry.status}`).toBe('pending');
      expectStarted(ex, entry.id, String(this));
    }
  }
  toString(): string {
    return `replay try-on #${this.pick} on ${this.sync ? 'POST /tryons/sync' : 'POST /tryons'}`;
  }
}

export type UploadKind = 'person' | 'failing person' | 'garment';

class UploadCommand implements Command {
  constructor(readonly kind: UploadKind) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const id = await upload(r, this.kind);
    m.images.push({ id, role: this.kind === 'garment' ? 'garment' : 'person', failing: this.kind === 'failing person' });
  }
  toString(): string {
    return `upload a ${this.kind} image`;
  }
}

class ForeignReadCommand implements Command {
  constructor(readonly pick: number) {}
  check(m: Readonly<Model>): boolean {
    return m.tryOns.length > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const entry = at(m.tryOns, this.pick);
    const other = r.other as Actor;
    const ex = await r.api.get(other, entry.id);
    expect([ex.response?.status, answerOf(ex).code], `${this}: ${said(ex)}`).toEqual([404, 'NOT_FOUND']);
  }
  toString(): string {
    return `other account GETs try-on #${this.pick}`;
  }
}

class ForeignImageCommand implements Command {
  constructor(readonly pick: number) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const person = at(m.images.filter((i) => i.role === 'person'), this.pick);
    const garment = at(m.images.filter((i) => i.role === 'garment'), 0);
    const other = r.other as Actor;
    // Refused when right; reserved anyway, so that a target that accepts it cannot pass the budget.
    fc.pre(r.t.target.budget.tryReserve(1));
    const ex = await r.api.start(other, { personImageId: person.id, garmentImageId: garment.id, consent: true });
    if (ex.response?.status !== 200) r.t.target.budget.giveBack(1);
    expect([ex.response?.status, answerOf(ex).code], `${this}: ${said(ex)}`).toEqual([400, 'INVALID_IMAGE_ID']);
  }
  toString(): string {
    return `other account starts with person image #${this.pick}`;
  }
}

class PauseCommand implements Command {
  check(): boolean {
    return true;
  }
  async run(_m: Model, r: Real): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, r.t.target.timing.pollIntervalMs));
  }
  toString(): string {
    return 'pause one poll interval';
  }
}

export async function upload(r: Real, kind: UploadKind): Promise<string> {
  const bytes = kind === 'garment' ? r.photos.garment : kind === 'person' ? r.photos.person : r.photos.failingPerson;
  const ex = await r.api.upload(r.actor, bytes, kind === 'garment' ? { filename: 'garment.png', contentType: 'image/png' } : { filename: 'person.jpg' });
  const id = answerOf(ex).id;
  expect([ex.response?.status, typeof id === 'string' && id.startsWith('img_')], `upload a ${kind} image: ${said(ex)}`).toEqual([200, true]);
  return id as string;
}

export interface Machine {
  /** Include generation-fails images and starts. */
  readonly failing: boolean;
  /** Include the other-account commands. */
  readonly other: boolean;
}

export function commandArbs(o: Machine): Array<fc.Arbitrary<Command>> {
  const kinds: UploadKind[] = o.failing ? ['person', 'failing person', 'garment'] : ['person', 'garment'];
  const start = (scenario: StartCommand['scenario']) =>
    fc.tuple(fc.nat(15), fc.nat(15), fc.boolean()).map(([p, g, sync]): Command => new StartCommand(scenario, p, g, sync));
  return [
    start('normal'),
    ...(o.failing ? [start('generation-fails')] : []),
    fc.nat(15).map((p): Command => new PollCommand(p)),
    fc.tuple(fc.nat(15), fc.boolean()).map(([p, sync]): Command => new ReplayCommand(p, sync)),
    fc.constantFrom(...kinds).map((k): Command => new UploadCommand(k)),
    fc.constant<Command>(new PauseCommand()),
    ...(o.other ? [fc.nat(15).map((p): Command => new ForeignReadCommand(p)), fc.nat(15).map((p): Command => new ForeignImageCommand(p))] : []),
  ];
}
