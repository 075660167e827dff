/**
 * The model of the try-on state machine (fast-check model-based testing) and what every command
 * shares: the model's images and try-ons, the real side (target, accounts, test control), and the
 * checks of each view of a try-on. Spec: States and transitions; Try-on fields.
 */
import type fc from 'fast-check';
import { expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { Api } from './api.ts';
import type { FixtureFormat } from '../fixtures/images.ts';
import { exercised } from './alternatives.ts';
import type { ConformanceContext } from './conformance.ts';
import type { ControlClient } from './control-client.ts';
import type { Actor } from './target.ts';

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
  /** The real time (ms since the epoch) the start was answered: whether it still sits in a minute's window. */
  readonly sentAt?: number;
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
  /** The starts a minute the account was lowered to (test control), until a raise; absent at the run's own. */
  startsLimit?: number;
  /** Keys of the account that were rotated away or revoked, in order. */
  readonly oldKeys: Array<{ readonly key: string; readonly how: 'rotated away' | 'revoked' }>;
}

export interface Real {
  readonly t: ConformanceContext;
  readonly api: Api;
  /** The run's account, with its one active key: test control may give it a new one mid-run. */
  actor: Actor;
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
export function expectStarted(t: ConformanceContext, ex: Exchange, id: string, via: string, sync: boolean): void {
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
