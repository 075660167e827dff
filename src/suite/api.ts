/**
 * The operations of the API, as the suite calls them: paced under the limits, charged against the
 * credit budget, recorded and checked (through `target.send`). Tests that probe a limit or an error
 * on purpose pass `pace: false` and get the raw answer; nothing here retries a request under test.
 */
import { randomBytes } from 'node:crypto';
import type { Exchange } from '../client/exchange.ts';
import type { Bucket } from '../client/pacer.ts';
import { withRetry } from '../client/retry.ts';
import type { ScenarioName } from '../fixtures/scenarios.ts';
import { Inconclusive } from './rules.ts';
import type { Actor, SuiteTarget } from './target.ts';

export interface StartOptions {
  readonly sync?: boolean;
  readonly idempotencyKey?: string | null;
  readonly pace?: boolean;
  readonly headers?: Record<string, string>;
  readonly rawBody?: string;
  readonly timeoutMs?: number;
}

/** A fresh Idempotency-Key, valid by the spec's pattern. */
export const newIdempotencyKey = (): string => `tc-${randomBytes(12).toString('base64url')}`;

export class Api {
  constructor(readonly target: SuiteTarget) {}

  async #paced(actor: Actor, bucket: Bucket, pace: boolean | undefined): Promise<void> {
    if (pace !== false) await this.target.pacer.take(actor.key, bucket);
    else this.target.pacer.record(actor.key, bucket);
  }

  #note429(actor: Actor, bucket: Bucket, ex: Exchange): void {
    const after = ex.response?.status === 429 ? Number(ex.response.headers['retry-after']) : NaN;
    if (Number.isFinite(after)) this.target.pacer.block(actor.key, bucket, after);
  }

  /** POST /tryons or /tryons/sync. Charges nothing to the budget: callers reserve what they may spend. */
  async start(actor: Actor, body: unknown, o: StartOptions = {}): Promise<Exchange> {
    const release = (await this.target.spendGuard?.acquire(actor.key)) ?? (() => {});
    try {
      return await this.#start(actor, body, o);
    } finally {
      release();
    }
  }

  async #start(actor: Actor, body: unknown, o: StartOptions): Promise<Exchange> {
    await this.#paced(actor, 'starts', o.pace);
    const key = o.idempotencyKey === undefined ? newIdempotencyKey() : o.idempotencyKey;
    const ex = await this.target.send({
      method: 'POST',
      path: o.sync ? '/tryons/sync' : '/tryons',
      key: actor.key,
      ...(o.rawBody === undefined ? { json: body } : { rawBody: o.rawBody }),
      headers: { ...(key !== null && { 'idempotency-key': key }), ...(o.rawBody !== undefined && { 'content-type': 'application/json' }), ...o.headers },
      operationId: o.sync ? 'createTryOnSync' : 'createTryOn',
      timeoutMs: o.timeoutMs ?? (o.sync ? this.target.timing.syncWaitMs + 30_000 : 30_000),
    });
    this.#note429(actor, 'starts', ex);
    return ex;
  }

  /** GET /tryons/{id}. */
  async get(actor: Actor, id: string, o: { pace?: boolean } = {}): Promise<Exchange> {
    await this.#paced(actor, 'polls', o.pace);
    const ex = await this.target.send({ method: 'GET', path: `/tryons/${encodeURIComponent(id)}`, key: actor.key, operationId: 'getTryOn' });
    this.#note429(actor, 'polls', ex);
    return ex;
  }

  /** POST /images with one `file` part. */
  async upload(actor: Actor, bytes: Buffer, o: { filename?: string; contentType?: string; pace?: boolean } = {}): Promise<Exchange> {
    await this.#paced(actor, 'uploads', o.pace);
    const ex = await this.target.send({
      method: 'POST',
      path: '/images',
      key: actor.key,
      multipart: { field: 'file', filename: o.filename ?? 'photo.jpg', contentType: o.contentType ?? 'image/jpeg', bytes },
      operationId: 'uploadImage',
    });
    this.#note429(actor, 'uploads', ex);
    return ex;
  }

  /** The actor's credit balance (see `balanceOf`); Inconclusive when the run cannot read one. */
  credits(actor: Actor): Promise<number> {
    return balanceOf(this.target, actor.key);
  }

  /** Polls until the try-on leaves `pending`, at the spec's pace (or faster with raised limits). */
  async waitFinal(actor: Actor, id: string, maxMs = this.target.timing.slowGenerationMs + 60_000): Promise<Exchange> {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const ex = await this.get(actor, id);
      const status = (ex.response?.json as { status?: string } | undefined)?.status;
      if (ex.response?.status !== 200 || status !== 'pending' || Date.now() > deadline) return ex;
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
 * The credit balance of the account behind `key`: the one place the suite reads a balance, so that
 * where the balance lives is one edit. The spec leaves the shape of GET /account open ("response body
 * shape ... not shown"), so a balance the run cannot read is a precondition of the run's own that did
 * not hold: it throws Inconclusive (no verdict), never a failure of the target.
 */
export async function balanceOf(target: SuiteTarget, key: string): Promise<number> {
  const ex = await withRetry(target.send)({ method: 'GET', path: '/account', key, operationId: 'getAccount' });
  const credits = (ex.response?.json as { credits?: unknown } | undefined)?.credits;
  if (typeof credits !== 'number') throw new Inconclusive(`the run cannot read a credit balance: GET /account gave ${ex.response?.status ?? ex.error} with no numeric "credits"`);
  return credits;
}

/** A valid create body from fixture URLs; `scenario` marks the person photo. */
export function urlBody(api: Api, scenario?: ScenarioName, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    personImageUrl: api.fixtureUrl(scenario ? `scenario-${scenario}.jpg` : 'person.jpg'),
    garmentImageUrl: api.fixtureUrl('garment.png'),
    consent: true,
    ...extra,
  };
}
