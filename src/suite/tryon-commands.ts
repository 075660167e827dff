/**
 * The model and commands of the try-on state machine (fast-check model-based testing): start, sync
 * start, poll, replay, upload, pause, and the other account's reads (the clock's commands are in
 * `tryon-clock-commands.ts`). Commands pick try-ons and
 * images by index into the model, and `toString()` reads like a log line, because it becomes the
 * counterexample. Spec: States and transitions; Try-on fields; Authentication 6.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { Api } from './api.ts';
import { newIdempotencyKey } from './api.ts';
import type { FixtureFormat } from '../fixtures/images.ts';
import { dimensions, type Alternative } from '../contract/alternatives.ts';
import { exercised } from './alternatives.ts';
import type { ConformanceContext } from './conformance.ts';
import type { ControlClient } from './control-client.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

export type Status = 'pending' | 'success' | 'failed';

/** 24 hours, in seconds: the lifetime of image ids and result URLs (spec, Limits). */
export const day = 24 * 3600;
/**
 * What the model's clock may lag the target's: the model counts only the clock's moves, and a run's
 * real time (at most its two-minute allowance) passes on the target's clock too.
 */
export const clockSlack = 600;

export interface ModelImage {
  readonly id: string;
  readonly role: 'person' | 'garment';
  /** Carries the generation-fails scenario marker. */
  readonly failing: boolean;
  readonly format: FixtureFormat;
  /** The model's clock at the upload. */
  readonly uploadedAt: number;
}

export interface ModelTryOn {
  readonly id: string;
  readonly key: string;
  readonly body: Readonly<Record<string, unknown>>;
  readonly failing: boolean;
  /** The last status the target showed. */
  status: Status;
  refunded: boolean;
  /** The model's clock when the start was sent (and its Idempotency-Key bound). */
  readonly startedAt: number;
  /** The model's clock when success was first seen, with the resultUrl then shown. */
  successSeenAt?: number;
  resultUrl?: string;
}

export interface Model {
  readonly images: ModelImage[];
  readonly tryOns: ModelTryOn[];
  /** Starts this run may still make that can cost a credit. */
  startsLeft: number;
  /** Seconds the run has moved the target's clock (test control). */
  clock: number;
}

export interface Real {
  readonly t: ConformanceContext;
  readonly api: Api;
  readonly actor: Actor;
  readonly other: Actor | undefined;
  readonly photos: Photos;
  /** Test control, when the target offers it: the clock can then move. */
  readonly control: ControlClient | undefined;
  /**
   * The actor's balance before the run's first start, when the account is the run's own (the model's
   * ledger starts there).
   */
  readonly credits: number | undefined;
}

export interface Photos {
  readonly person: Buffer;
  readonly personPng: Buffer;
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
export const at = <T>(list: readonly T[], pick: number): T => list[pick % list.length] as T;
/** An uploaded id the target must still take: younger than 24 h on its clock, whatever real time added. */
export const live = (m: Readonly<Model>, image: ModelImage): boolean => m.clock - image.uploadedAt + clockSlack < day;
const pollUrlOf = (id: string): string => `/api/v1/tryons/${id}`;

/** A 429 or 5xx on a request the machine needs: the spec allows them (retry later), but the run cannot follow on. */
export function precondition(r: Real, ex: Exchange, what: string): void {
  const status = ex.response?.status;
  if (status === undefined || status === 429 || status >= 500)
    r.t.inconclusive(
      `${what} answered ${said(ex)}: a transient answer the spec allows, so the machine could not go on`,
    );
}

const transient = (ex: Exchange): boolean =>
  ex.response === undefined || ex.response.status === 429 || ex.response.status >= 500;

/**
 * GET /tryons/{id} of a try-on of the model, expecting 200. A 429 or 5xx is read again (the spec
 * allows them on any read); when it persists on a try-on known to fail, that breaks "A `failed`
 * try-on is reported with HTTP 200 on read", else the run cannot go on and is inconclusive.
 */
export async function readTryOn(r: Real, entry: ModelTryOn, via: string, first?: Exchange): Promise<Exchange> {
  const { t } = r;
  let ex = first ?? (await r.api.get(r.actor, entry.id));
  for (let i = 0; i < 2 && transient(ex); i++) ex = await r.api.get(r.actor, entry.id);
  if (transient(ex) && (entry.failing || entry.status === 'failed')) {
    t.must('STATE-FAILED-READ-IS-200', () =>
      expect(ex.response?.status, `${via}: a failed try-on read three times: ${said(ex)}`).toBe(200),
    );
  }
  precondition(r, ex, via);
  // "Response 200 body: `id` (string), `status` ..." for a try-on of the calling account.
  t.must('RES-TRYON-ID-RETURNED-ON-CREATE', () => expect(ex.response?.status, `${via}: ${said(ex)}`).toBe(200));
  return ex;
}

/**
 * Checks one view of a try-on against the model and moves the model on. An ordinary try-on may end
 * `success` or `failed` (spec, States and transitions: `failed` on "any failure while the image is
 * made"); only a generation-fails try-on has a required outcome, by the toolkit's scenario convention.
 * `clock` is the model's clock, kept with the first success seen (its result URL's 24 hours).
 */
export function observe(real: Real, entry: ModelTryOn, answer: Answer, via: string, clock: number): void {
  const { t } = real;
  const where = `${via} of try-on ${entry.id}`;
  // "Identifier of the try-on, returned on creation": reading or replaying it names that try-on.
  t.must('RES-TRYON-ID-RETURNED-ON-CREATE', () => expect(answer.id, where).toBe(entry.id));
  // "status | string | `pending`, `success` or `failed`."
  t.must('RES-TRYON-STATUS-VALUES', () =>
    expect(['pending', 'success', 'failed'], `${where}: status`).toContain(answer.status),
  );
  const status = answer.status as Status;
  // "Any transition out of `success` or `failed`: none shown" (x-point terminal-transitions: a final state
  // stays final).
  if (entry.status !== 'pending')
    t.must('STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED', () =>
      expect(status, `${where}: a final state changed`).toBe(entry.status),
    );
  // "`resultUrl` becomes available" on success; "`null` in every other state."
  if (status === 'success')
    t.must('STATE-PENDING-TO-SUCCESS', () =>
      expect(typeof answer.resultUrl, `${where}: resultUrl on success`).toBe('string'),
    );
  else
    t.must('RES-RESULT-URL-NULL-UNLESS-SUCCESS', () =>
      expect(answer.resultUrl, `${where}: resultUrl while ${status}`).toBeNull(),
    );
  // "message | On `failed`: a short explanation that may be shown to a user".
  if (status === 'failed')
    t.must('RES-TRYON-MESSAGE-ON-FAILED', () =>
      expect(typeof answer.message === 'string' && answer.message.length > 0, `${where}: message on failed`).toBe(true),
    );
  // The generation-fails marker is our convention, not the spec's: a target that ignores it is not judged on it.
  if (status === 'success' && entry.failing)
    t.inconclusive(`${where}: a generation-fails try-on ended success; the target does not honour the scenario marker`);
  if (status !== 'pending')
    exercised(t, 'final state', status, [
      'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED',
      'RES-RESULT-URL-NULL-UNLESS-SUCCESS',
    ]);
  // The latest resultUrl is the one to fetch (a target may sign each answer's); its 24 hours run from the
  // first success seen.
  if (status === 'success' && typeof answer.resultUrl === 'string') {
    entry.successSeenAt ??= clock;
    entry.resultUrl = answer.resultUrl;
  }
  entry.status = status;
  if (status === 'failed' && !entry.refunded) {
    entry.refunded = true;
    t.target.budget.giveBack(1);
  }
}

/** The create answer and the sync 202: `{id, status: pending, pollUrl}` with no resultUrl. */
function expectStarted(t: ConformanceContext, ex: Exchange, id: string, via: string, sync: boolean): void {
  const answer = answerOf(ex);
  if (sync) {
    // Sync 202: "`{id, status: "pending", pollUrl}` identical in shape to the create response".
    t.must('SYNC-202-STILL-PENDING', () => expect(answer.status, `${via}: status`).toBe('pending'));
    t.must('SYNC-202-STILL-PENDING', () =>
      expect('resultUrl' in answer, `${via}: resultUrl in a sync 202`).toBe(false),
    );
    t.must('SYNC-202-STILL-PENDING', () =>
      expect(typeof answer.pollUrl, `${via}: pollUrl in a sync 202`).toBe('string'),
    );
  } else {
    // Create response: status "always `pending`"; resultUrl "Absent from the create response".
    t.must('CREATE-RESPONSE-STATUS-PENDING', () => expect(answer.status, `${via}: status`).toBe('pending'));
    t.must('RES-RESULT-URL-ABSENT-FROM-CREATE', () =>
      expect('resultUrl' in answer, `${via}: resultUrl in a create answer`).toBe(false),
    );
  }
  // pollUrl: "Path relative to {host}, equal to `/api/v1/tryons/<id>`."
  t.must('RES-POLL-URL-VALUE', () => expect(answer.pollUrl, `${via}: pollUrl`).toBe(pollUrlOf(id)));
}

export class StartCommand implements Command {
  constructor(
    readonly scenario: 'normal' | 'generation-fails',
    readonly person: number,
    readonly garment: number,
    readonly sync: boolean,
    /**
     * Which inputs go by URL (the fixture host's copy of the same image), when the target has a fixture
     * host; the rest by uploaded id.
     */
    readonly byUrl: { readonly person: boolean; readonly garment: boolean } = { person: false, garment: false },
  ) {}
  /** The images it may pick: ids still inside their 24 hours. */
  #persons(m: Readonly<Model>): ModelImage[] {
    return m.images.filter(
      (i) => i.role === 'person' && i.failing === (this.scenario === 'generation-fails') && live(m, i),
    );
  }
  check(m: Readonly<Model>): boolean {
    return m.startsLeft > 0 && this.#persons(m).length > 0 && m.images.some((i) => i.role === 'garment' && live(m, i));
  }
  async run(m: Model, r: Real): Promise<void> {
    const { t } = r;
    const person = at(this.#persons(m), this.person);
    const garment = at(
      m.images.filter((i) => i.role === 'garment' && live(m, i)),
      this.garment,
    );
    fc.pre(t.target.budget.tryReserve(1));
    m.startsLeft--;
    const key = newIdempotencyKey();
    // "Each input is either a public HTTPS URL or the id of an image uploaded earlier"; "URL and id forms may
    // be mixed".
    const urls = t.target.offers.get('fixture-host') === true;
    const personUrl = urls && this.byUrl.person;
    const garmentUrl = urls && this.byUrl.garment;
    const personFile = person.failing
      ? 'scenario-generation-fails.jpg'
      : person.format === 'png'
        ? 'person.png'
        : 'person.jpg';
    const body = {
      ...(personUrl ? { personImageUrl: r.api.fixtureUrl(personFile) } : { personImageId: person.id }),
      ...(garmentUrl ? { garmentImageUrl: r.api.fixtureUrl('garment.png') } : { garmentImageId: garment.id }),
      consent: true,
    };
    const ex = await r.api.start(r.actor, body, { idempotencyKey: key, sync: this.sync });
    const status = ex.response?.status;
    if (status !== 200 && status !== 202) t.target.budget.giveBack(1);
    precondition(r, ex, String(this));
    if (this.sync) {
      // Sync: "200 | try-on finished within the wait" or "202 | still working when the wait ends".
      t.must('SYNC-SAME-CONTRACT-AS-CREATE', () => expect([200, 202], `${this}: ${said(ex)}`).toContain(status));
    } else {
      // "Response (success): status 200" for a valid request with credit available.
      t.must('CREATE-ACCEPTED-IS-200', () => expect(status, `${this}: ${said(ex)}`).toBe(200));
    }
    const id = answerOf(ex).id;
    // "id | string | Identifier of the try-on, returned on creation."
    t.must('RES-TRYON-ID-RETURNED-ON-CREATE', () => expect(typeof id, `${this}: id`).toBe('string'));
    const entry: ModelTryOn = {
      id: id as string,
      key,
      body,
      failing: person.failing,
      status: 'pending',
      refunded: false,
      startedAt: m.clock,
    };
    m.tryOns.push(entry);
    const judged = this.sync ? (['SYNC-SAME-CONTRACT-AS-CREATE'] as const) : (['CREATE-ACCEPTED-IS-200'] as const);
    exercised(t, 'endpoint', this.sync ? 'POST /tryons/sync' : 'POST /tryons', ['RES-TRYON-ID-RETURNED-ON-CREATE']);
    exercised(t, 'input format', person.format === 'png' ? 'PNG' : 'JPEG', judged);
    for (const byUrl of [personUrl, garmentUrl]) exercised(t, 'input form', byUrl ? 'URL' : 'uploaded id', judged);
    if (status === 200 && this.sync) {
      // pollUrl: "Only in the create response and in a `202` from the sync endpoint."
      t.must('RES-POLL-URL-ONLY-CREATE-AND-SYNC-202', () =>
        expect('pollUrl' in answerOf(ex), `${this}: pollUrl in a sync 200`).toBe(false),
      );
      // A sync 200 is "finished within the wait"; pending is "still working when the wait ends" → 202.
      t.must('SYNC-202-STILL-PENDING', () =>
        expect(answerOf(ex).status, `${this}: a sync 200 is final`).not.toBe('pending'),
      );
      observe(r, entry, answerOf(ex), 'sync 200', m.clock);
    } else expectStarted(t, ex, entry.id, String(this), this.sync);
  }
  toString(): string {
    const what = this.scenario === 'generation-fails' ? 'generation-fails person' : 'person';
    const form = (url: boolean): string => (url ? ' by URL' : '');
    return `${this.sync ? 'POST /tryons/sync' : 'POST /tryons'} ${what} #${this.person}${form(this.byUrl.person)} garment #${this.garment}${form(this.byUrl.garment)}`;
  }
}

class PollCommand implements Command {
  constructor(readonly pick: number) {}
  check(m: Readonly<Model>): boolean {
    return m.tryOns.length > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const { t } = r;
    const entry = at(m.tryOns, this.pick);
    const ex = await readTryOn(r, entry, String(this));
    // pollUrl: "Only in the create response and in a `202` from the sync endpoint."
    t.must('RES-POLL-URL-ONLY-CREATE-AND-SYNC-202', () =>
      expect('pollUrl' in answerOf(ex), `${this}: pollUrl in a read`).toBe(false),
    );
    observe(r, entry, answerOf(ex), 'GET', m.clock);
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
    if (m.tryOns.length === 0) return false;
    // A reuse after the clock moved may start a new try-on (retention is not shown), so it needs a start left.
    return m.clock === at(m.tryOns, this.pick).startedAt || m.startsLeft > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const { t } = r;
    const entry = at(m.tryOns, this.pick);
    const moved = m.clock - entry.startedAt;
    // The clock moved since the key was bound: how long keys are kept is not shown (x-point
    // idempotency-retention), so the answer is recorded.
    if (moved > 0) return this.#afterMove(m, r, entry, moved);
    const ex = await r.api.start(r.actor, entry.body, { idempotencyKey: entry.key, sync: this.sync });
    const status = ex.response?.status;
    precondition(r, ex, String(this));
    // "Reusing an Idempotency-Key returns the earlier try-on instead of starting or charging again."
    t.must('CREATE-IDEMPOTENCY-REPLAY', () =>
      expect(this.sync ? [200, 202] : [200], `${this}: ${said(ex)}`).toContain(status),
    );
    t.must('CREATE-IDEMPOTENCY-REPLAY', () =>
      expect(answerOf(ex).id, `${this}: a replay names the same try-on`).toBe(entry.id),
    );
    exercised(t, 'endpoint', this.sync ? 'POST /tryons/sync' : 'POST /tryons', ['CREATE-IDEMPOTENCY-REPLAY']);
    this.#replayed(m, r, entry, ex);
  }
  /** The answer of a replay that named `entry`: a sync 200 is a view of it, a 202 or a create answer says pending. */
  #replayed(m: Model, r: Real, entry: ModelTryOn, ex: Exchange): void {
    const { t } = r;
    if (this.sync && ex.response?.status === 200) observe(r, entry, answerOf(ex), 'sync replay 200', m.clock);
    else {
      // A 202 says pending: for a try-on already seen final, that is a final state that changed.
      if (this.sync && entry.status !== 'pending') {
        t.must('STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED', () =>
          expect('pending', `${this}: 202 pending after the try-on was seen ${entry.status}`).toBe(entry.status),
        );
      }
      expectStarted(t, ex, entry.id, String(this), this.sync);
    }
  }
  /**
   * A reuse of the key after the clock moved `moved` seconds: a replay, a new try-on (charged, and
   * from now on the key's), or a refusal (its image ids may have expired) are all recorded, never judged.
   */
  async #afterMove(m: Model, r: Real, entry: ModelTryOn, moved: number): Promise<void> {
    const { t } = r;
    fc.pre(t.target.budget.tryReserve(1));
    const ex = await r.api.start(r.actor, entry.body, { idempotencyKey: entry.key, sync: this.sync });
    const status = ex.response?.status;
    const id = answerOf(ex).id;
    const accepted = (status === 200 || status === 202) && typeof id === 'string';
    const named = accepted ? m.tryOns.find((e) => e.id === id && e.key === entry.key) : undefined;
    if (!accepted || named) t.target.budget.giveBack(1);
    precondition(r, ex, String(this));
    const after = `a key reused ${moved < day ? 'within' : 'over'} 24 h after its try-on (test clock)`;
    let outcome: string;
    if (named) {
      outcome = named === entry ? 'replays it' : 'replays the try-on it started when reused before';
      this.#replayed(m, r, named, ex);
    } else if (accepted) {
      outcome = 'starts a new try-on';
      m.startsLeft--;
      m.tryOns.push({
        id: id as string,
        key: entry.key,
        body: entry.body,
        failing: entry.failing,
        status: 'pending',
        refunded: false,
        startedAt: m.clock,
      });
      if (this.sync && status === 200)
        observe(r, m.tryOns.at(-1) as ModelTryOn, answerOf(ex), 'sync 200 of a reused key', m.clock);
    } else outcome = `answers ${status ?? ex.error} ${String(answerOf(ex).code ?? '')}`.trim();
    t.choose('idempotency-retention', `${after} ${outcome}`, 'CREATE-IDEMPOTENCY-RETENTION-IMPL-DEFINED');
  }
  toString(): string {
    return `replay try-on #${this.pick} on ${this.sync ? 'POST /tryons/sync' : 'POST /tryons'}`;
  }
}

export type UploadKind = 'person' | 'failing person' | 'garment';

class UploadCommand implements Command {
  constructor(
    readonly kind: UploadKind,
    readonly format: FixtureFormat,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    m.images.push(await uploadImage(m, r, this.kind, this.format));
  }
  toString(): string {
    return `upload a ${this.kind} image (${this.format === 'png' ? 'PNG' : 'JPEG'})`;
  }
}

/** Uploads one image and gives its model entry, dated by the model's clock. */
export async function uploadImage(
  m: Readonly<Model>,
  r: Real,
  kind: UploadKind,
  format: FixtureFormat,
): Promise<ModelImage> {
  const id = await upload(r, kind, format);
  return {
    id,
    role: kind === 'garment' ? 'garment' : 'person',
    failing: kind === 'failing person',
    format: kind === 'garment' ? 'png' : format,
    uploadedAt: m.clock,
  };
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
    precondition(r, ex, String(this));
    // Authentication 6: "another account's try-on id gives `NOT_FOUND`" (404 in the Errors table).
    r.t.must('AUTH-FOREIGN-TRYON-NOT-FOUND', () =>
      expect([ex.response?.status, answerOf(ex).code], `${this}: ${said(ex)}`).toEqual([404, 'NOT_FOUND']),
    );
  }
  toString(): string {
    return `other account GETs try-on #${this.pick}`;
  }
}

/**
 * The other account starts with one of this account's images (drawn from the spec's two, "a person photo
 * and a garment image") and its own upload as the other image, on a create endpoint drawn from the two.
 */
class ForeignImageCommand implements Command {
  constructor(
    readonly pick: number,
    readonly foreign: Alternative<'image'>,
    readonly endpoint: Alternative<'endpoint'>,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const image = at(
      m.images.filter((i) => i.role === this.foreign),
      this.foreign === 'person' ? this.pick : 0,
    );
    const other = r.other as Actor;
    const own = await idBody(r.api, other);
    // Refused when right; reserved anyway, so that a target that accepts it cannot pass the budget.
    fc.pre(r.t.target.budget.tryReserve(1));
    const body = { ...own, [`${this.foreign}ImageId`]: image.id };
    const ex = await r.api.start(other, body, { sync: this.endpoint === 'POST /tryons/sync' });
    if (ex.response?.status !== 200 && ex.response?.status !== 202) r.t.target.budget.giveBack(1);
    precondition(r, ex, String(this));
    // The order of checks is open: an other account without credits may rightly be told 402 first.
    if (ex.response?.status === 402)
      r.t.inconclusive(
        `${this}: ${said(ex)}: the other account has no credits, so the image id rule could not be judged`,
      );
    // Authentication 6: "another account's image id gives `INVALID_IMAGE_ID`" (400 in the Errors table).
    r.t.must('AUTH-FOREIGN-IMAGE-ID-INVALID', () =>
      expect([ex.response?.status, answerOf(ex).code], `${this}: ${said(ex)}`).toEqual([400, 'INVALID_IMAGE_ID']),
    );
    exercised(r.t, 'image', this.foreign, ['AUTH-FOREIGN-IMAGE-ID-INVALID']);
    exercised(r.t, 'endpoint', this.endpoint, ['AUTH-FOREIGN-IMAGE-ID-INVALID']);
  }
  toString(): string {
    const which = this.foreign === 'person' ? `person image #${this.pick}` : 'garment image #0';
    return `other account starts with ${which} and its own other image on ${this.endpoint}`;
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

/**
 * Uploads one of the machine's images (a person photo as JPEG or PNG, "Formats | JPEG or PNG"; the
 * garment and the generation-fails person in one format each); an upload that does not give an id
 * is the run's own problem here (uploads.suite judges uploads).
 */
async function upload(r: Real, kind: UploadKind, format: FixtureFormat): Promise<string> {
  const png = kind === 'person' && format === 'png';
  const bytes =
    kind === 'garment'
      ? r.photos.garment
      : kind === 'person'
        ? png
          ? r.photos.personPng
          : r.photos.person
        : r.photos.failingPerson;
  const ex = await r.api.upload(
    r.actor,
    bytes,
    kind === 'garment'
      ? { filename: 'garment.png', contentType: 'image/png' }
      : png
        ? { filename: 'person.png', contentType: 'image/png' }
        : { filename: 'person.jpg' },
  );
  const id = answerOf(ex).id;
  if (ex.response?.status !== 200 || typeof id !== 'string')
    r.t.inconclusive(`upload a ${kind} image: ${said(ex)}; the machine needs uploaded ids`);
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
    fc
      .tuple(fc.nat(15), fc.nat(15), fc.boolean(), fc.boolean(), fc.boolean())
      .map(
        ([p, g, sync, personByUrl, garmentByUrl]): Command =>
          new StartCommand(scenario, p, g, sync, { person: personByUrl, garment: garmentByUrl }),
      );
  return [
    start('normal'),
    ...(o.failing ? [start('generation-fails')] : []),
    fc.nat(15).map((p): Command => new PollCommand(p)),
    fc.tuple(fc.nat(15), fc.boolean()).map(([p, sync]): Command => new ReplayCommand(p, sync)),
    fc
      .tuple(fc.constantFrom(...kinds), fc.constantFrom<FixtureFormat>('jpeg', 'png'))
      .map(([k, f]): Command => new UploadCommand(k, f)),
    fc.constant<Command>(new PauseCommand()),
    ...(o.other
      ? [
          fc.nat(15).map((p): Command => new ForeignReadCommand(p)),
          fc
            .tuple(
              fc.nat(15),
              fc.constantFrom(...dimensions.image.alternatives),
              fc.constantFrom(...dimensions.endpoint.alternatives),
            )
            .map(([p, foreign, endpoint]): Command => new ForeignImageCommand(p, foreign, endpoint)),
        ]
      : []),
  ];
}
