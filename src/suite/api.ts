/**
 * The operations of the API, as the suite calls them: paced under the limits, charged against the
 * credit budget, recorded and checked (through `target.send`, which retries transient 429, 500, 502
 * and 503 answers as the spec's client does). Tests that probe a limit on purpose pass `pace: false`
 * and get every 429 as it came; tests that ask for a transient error name it in `keep`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { TestRunner } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { Bucket } from '../client/pacer.ts';
import { limitAdviceOf } from '../client/rate-limit-advice.ts';
import type { ScenarioName } from '../fixtures/scenarios.ts';
import { progressEvents } from '../shared/progress-events.ts';
import { describeBalance } from './account-balance.ts';
import { Inconclusive } from './rules.ts';
import { becauseOf, runFacts, type LearnedFact } from './run-facts.ts';
import { noteRead, noteStarted, noteUploaded } from './same-answer.ts';
import { noBalanceReading, type Actor, type SuiteTarget } from './target.ts';

export interface StartOptions {
  readonly sync?: boolean;
  readonly idempotencyKey?: string | null;
  readonly pace?: boolean;
  readonly headers?: Record<string, string>;
  readonly rawBody?: string;
  readonly timeoutMs?: number;
  /** Transient statuses under test, returned as they come (see `SendOptions.keep`). */
  readonly keep?: readonly number[];
}

/**
 * Polls a test declares for one wait for a final state (`Api.waitFinal`): "Most results are ready in
 * under 30 seconds", polled every 2.5 s. It bounds the declared cost (plan, allowance), not the wait.
 */
export const pollsPerWait = 12;
/** The same for a generation that outlasts the sync wait of about 55 s. */
export const pollsPerSlowWait = 40;

const answerId = (ex: Exchange): unknown => (ex.response?.json as { id?: unknown } | undefined)?.id;

/**
 * A fact the run learned that says polling shows no change here: the target answers everything with the
 * same example, or try-ons stayed pending for the whole give-up time of an earlier test (the test that
 * waited that long judges what it saw, its other waits included).
 */
function pollingShowsNoChange(): LearnedFact | undefined {
  const facts = runFacts();
  const running = TestRunner.getCurrentTest();
  const pending = facts.known('tryons-stay-pending');
  const ownWait = pending !== undefined && pending.test === (running?.fullTestName ?? running?.name);
  return facts.known('same-answer-every-time') ?? (ownWait ? undefined : pending);
}

/** A fresh Idempotency-Key, valid by the spec's pattern. */
export const newIdempotencyKey = (): string => `tc-${randomBytes(12).toString('base64url')}`;

export class Api {
  constructor(readonly target: SuiteTarget) {}

  /** What a call keeps unretried: every 429 when it probes a limit (`pace: false`), and what it names. */
  static #keep(pace: boolean | undefined, keep: readonly number[] = []): readonly number[] {
    return pace === false ? [429, ...keep] : keep;
  }

  async #paced(actor: Actor, bucket: Bucket, pace: boolean | undefined): Promise<void> {
    if (pace !== false) await this.target.pacer.take(actor.key, bucket);
    else this.target.pacer.record(actor.key, bucket);
  }

  /** What the answer said of the bucket's limit: a 429's Retry-After, RateLimit and RateLimit-Policy. */
  #note429(actor: Actor, bucket: Bucket, ex: Exchange): void {
    const advice = limitAdviceOf(ex.response);
    // With test control the target's clock is moved, not waited for: only a 429's Retry-After blocks there.
    const blocks = advice.block !== undefined && (ex.response?.status === 429 || this.target.control === undefined);
    if (blocks) this.target.pacer.block(actor.key, bucket, advice.block?.seconds ?? 0);
    // The target's advertised quota paces its own accounts, unless the user declared the limit (or control raised it).
    const declared = this.target.config.limits;
    const ownFigure = declared === 'none' || declared?.[bucket] !== undefined || this.target.control !== undefined;
    if (advice.quotas !== undefined && !ownFigure) this.target.pacer.adopt(actor.key, bucket, advice.quotas);
  }

  /** POST /tryons or /tryons/sync. Charges nothing to the budget: callers reserve what they may spend. */
  async start(actor: Actor, body: unknown, o: StartOptions = {}): Promise<Exchange> {
    const release = (await this.target.spendGuard?.acquire(actor.key)) ?? (() => {});
    let ex: Exchange | undefined;
    try {
      ex = await this.#start(actor, body, o);
      return ex;
    } finally {
      // The answer lets a pessimistic guard (no balance reading) tell a refused start from a charged one.
      release(ex);
    }
  }

  async #start(actor: Actor, body: unknown, o: StartOptions): Promise<Exchange> {
    await this.#paced(actor, 'starts', o.pace);
    const key = o.idempotencyKey === undefined ? newIdempotencyKey() : o.idempotencyKey;
    const timeoutMs = o.timeoutMs ?? (o.sync ? this.target.timing.syncWaitMs + 30_000 : 30_000);
    // A sync start may be held open (about 55 s by the spec): said on the progress line while it lasts.
    const held = o.sync ? 'the answer of POST /tryons/sync (held up to about 55 s by the spec)' : undefined;
    if (held !== undefined) progressEvents.emit('wait', { what: held, ms: timeoutMs });
    const ex = await this.target.send({
      method: 'POST',
      path: o.sync ? '/tryons/sync' : '/tryons',
      key: actor.key,
      ...(o.rawBody === undefined ? { json: body } : { rawBody: o.rawBody }),
      headers: {
        ...(key !== null && { 'idempotency-key': key }),
        ...(o.rawBody !== undefined && { 'content-type': 'application/json' }),
        ...o.headers,
      },
      operationId: o.sync ? 'createTryOnSync' : 'createTryOn',
      timeoutMs,
      keep: Api.#keep(o.pace, o.keep),
    });
    if (held !== undefined) progressEvents.emit('waited', { what: held });
    this.#note429(actor, 'starts', ex);
    // Headers of the caller's own may replace the key: such a start is not compared by its key.
    if (ex.response?.status === 200 || ex.response?.status === 202)
      noteStarted({
        key: o.headers === undefined ? key : null,
        body: o.rawBody ?? JSON.stringify(body) ?? '',
        answer: ex.response.text,
        id: answerId(ex),
      });
    return ex;
  }

  /** GET /tryons/{id}. */
  async get(actor: Actor, id: string, o: { pace?: boolean } = {}): Promise<Exchange> {
    await this.#paced(actor, 'polls', o.pace);
    const ex = await this.target.send({
      method: 'GET',
      path: `/tryons/${encodeURIComponent(id)}`,
      key: actor.key,
      operationId: 'getTryOn',
      keep: Api.#keep(o.pace),
    });
    this.#note429(actor, 'polls', ex);
    if (ex.response?.status === 200) noteRead(id, answerId(ex));
    return ex;
  }

  /** POST /images with one `file` part. */
  async upload(
    actor: Actor,
    bytes: Buffer,
    o: { filename?: string; contentType?: string; pace?: boolean } = {},
  ): Promise<Exchange> {
    await this.#paced(actor, 'uploads', o.pace);
    const ex = await this.target.send({
      method: 'POST',
      path: '/images',
      key: actor.key,
      multipart: {
        field: 'file',
        filename: o.filename ?? 'photo.jpg',
        contentType: o.contentType ?? 'image/jpeg',
        bytes,
      },
      operationId: 'uploadImage',
      keep: Api.#keep(o.pace),
    });
    this.#note429(actor, 'uploads', ex);
    if (ex.response?.status === 200) noteUploaded(createHash('sha256').update(bytes).digest('hex'), answerId(ex));
    return ex;
  }

  /** The actor's credit balance (see `balanceOf`); Inconclusive when the run cannot read one. */
  credits(actor: Actor): Promise<number> {
    return balanceOf(this.target, actor.key);
  }

  /**
   * Polls until the try-on leaves `pending`, at the spec's pace (or faster with raised limits). Where an
   * earlier test learned that polling shows no change on this target, a pending try-on ends the test at
   * once as inconclusive; a try-on still pending at the give-up time teaches the run that fact.
   */
  async waitFinal(actor: Actor, id: string, maxMs = this.target.timing.slowGenerationMs + 60_000): Promise<Exchange> {
    // Said on the progress line while it lasts: a poll loop can take minutes.
    const what = `try-on ${id.slice(0, 80)} to leave pending`;
    progressEvents.emit('wait', { what, ms: maxMs });
    try {
      return await this.#pollFinal(actor, id, maxMs);
    } finally {
      progressEvents.emit('waited', { what });
    }
  }

  async #pollFinal(actor: Actor, id: string, maxMs: number): Promise<Exchange> {
    const started = Date.now();
    for (;;) {
      const ex = await this.get(actor, id);
      const status = (ex.response?.json as { status?: string } | undefined)?.status;
      if (ex.response?.status !== 200 || status !== 'pending') return ex;
      const known = pollingShowsNoChange();
      if (known)
        throw new Inconclusive(becauseOf(known, `try-on ${id.slice(0, 80)} is pending, and was not waited for`));
      const waited = Date.now() - started;
      if (waited > maxMs) {
        runFacts().learn(
          'tryons-stay-pending',
          `try-on ${id.slice(0, 80)} was still pending after ${Math.round(waited / 1000)} s of polling`,
        );
        return ex;
      }
      await new Promise((r) => setTimeout(r, this.target.timing.pollIntervalMs));
    }
  }

  /** A URL of an exported fixture on the fixture host. */
  fixtureUrl(file: string): string {
    const base = this.target.config.fixtureBaseUrl;
    if (!base) throw new Error('no fixture host');
    return `${base}/${file}`;
  }

  /** A URL of one of the fixture host's misbehaving routes (our own fixture host only). */
  behaviourUrl(pathAndQuery: string): string {
    const base = this.target.config.fixtureBaseUrl;
    if (!base || !this.target.config.fixtureBehaviours) throw new Error('no behaviour routes');
    return `${new URL(base).origin}${pathAndQuery}`;
  }
}

/**
 * The credit balance of the account behind `key`: the one place the suite reads a balance, through
 * the run's balance reader (`target.balance`: where the user said, or where the run found it). The
 * spec leaves the shape of GET /account open ("response body shape ... not shown"), so a balance the
 * run cannot read is a precondition of the run's own that did not hold: Inconclusive, never a
 * failure of the target. Tests that cannot do without a balance call `requireBalance` first.
 */
export async function balanceOf(target: SuiteTarget, key: string): Promise<number> {
  if (!target.balance) throw new Inconclusive(`${noBalanceReading}: ${describeBalance(target.balanceDecision)}`);
  try {
    return await target.balance.read(key);
  } catch (error) {
    throw new Inconclusive(`the run cannot read a credit balance: ${(error as Error).message}`);
  }
}

/**
 * The balance of the account behind `key` where the run reads balances, else undefined: for tests
 * whose balance comparison is one check among others, which judge the rest and compare the balance
 * last (through `precondition(before !== undefined, noBalance(target))`).
 */
export function balanceIfRead(target: SuiteTarget, key: string): Promise<number | undefined> {
  return target.balance ? balanceOf(target, key) : Promise.resolve(undefined);
}

/** Why a balance comparison was not made: the run reads no balance. */
export const noBalance = (target: SuiteTarget): string =>
  `${noBalanceReading}: ${describeBalance(target.balanceDecision)}; the charge was not compared`;

/**
 * Skips the test, before it sends anything, when the run reads no balance (a test that compares balances
 * needs one).
 */
export function requireBalance(t: { readonly target: SuiteTarget; skip(reason: string): never }): void {
  if (!t.target.balance) t.skip(`${noBalanceReading}: ${describeBalance(t.target.balanceDecision)}`);
}

/** A valid create body from fixture URLs; `scenario` marks the person photo. */
export function urlBody(
  api: Api,
  scenario?: ScenarioName,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    personImageUrl: api.fixtureUrl(scenario ? `scenario-${scenario}.jpg` : 'person.jpg'),
    garmentImageUrl: api.fixtureUrl('garment.png'),
    consent: true,
    ...extra,
  };
}
