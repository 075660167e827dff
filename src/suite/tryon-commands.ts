/**
 * The commands of the try-on state machine besides starts and replays: poll, upload, pause, and
 * the other account's reads and starts; and the list a run draws from (the clock's commands are in
 * `tryon-clock-commands.ts`, the key's and the limits' in `tryon-key-commands.ts` and
 * `tryon-limit-commands.ts`). Commands pick try-ons and images by index into the model, and
 * `toString()` reads like a log line, because it becomes the counterexample. Spec: States and
 * transitions; Try-on fields; Authentication 6.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { FixtureFormat } from '../fixtures/images.ts';
import { dimensions, type Alternative } from '../contract/alternatives.ts';
import { exercised } from './alternatives.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';
import {
  answerOf,
  at,
  observe,
  precondition,
  readTryOn,
  said,
  type Command,
  type Model,
  type Real,
} from './tryon-model.ts';
import { ReplayCommand } from './tryon-replay-command.ts';
import { StartCommand, uploadImage, type UploadKind } from './tryon-start-command.ts';

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
