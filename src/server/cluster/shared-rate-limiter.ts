/**
 * Rate-limit windows shared by every instance (spec: Limits): one call of `tryon_rate_take`
 * (store/pg-migration-cluster.ts) checks the account's window and counts the request in one transaction
 * under an advisory lock per account and bucket, so 12 starts a minute are 12 wherever they land.
 * Retry-After and the RateLimit fields are computed as the in-process limiter does (rate-limiter.ts).
 * Requests of one account and bucket that arrive while its call is under way wait in a lane and go together
 * in the next call (`tryon_rate_take_n`, in their order): the same count, one round trip per turn.
 */
import type { Clock } from '../domain/clock.ts';
import { type Bucket, type RateDecision, type RateLimits, windowMs } from '../domain/rate-limiter.ts';
import type { ClusterConnection } from './cluster-connection.ts';

interface TakeRow {
  granted: number;
  used: number;
  first_at: number;
  leaves_at: number | null;
}

interface Waiter {
  readonly resolve: (decision: RateDecision) => void;
  readonly reject: (error: unknown) => void;
}

/** Most requests one call decides. */
const maxBatch = 500;

export class SharedRateLimiter implements RateLimits {
  /** Per account, bucket and limit: the requests waiting for the next call (a lane exists while a call is under way). */
  readonly #lanes = new Map<string, Waiter[]>();

  constructor(
    private readonly conn: ClusterConnection,
    private readonly clock: Clock,
  ) {}

  take(accountId: string, bucket: Bucket, limit: number): Promise<RateDecision> {
    return new Promise((resolve, reject) => {
      const lane = `${limit} ${bucket} ${accountId}`;
      const waiting = this.#lanes.get(lane);
      if (waiting) waiting.push({ resolve, reject });
      else {
        this.#lanes.set(lane, []);
        void this.#drain(lane, [{ resolve, reject }], accountId, bucket, limit);
      }
    });
  }

  /** Decides `batch`, then each batch that gathered meanwhile, until the lane is empty. */
  async #drain(lane: string, first: Waiter[], accountId: string, bucket: Bucket, limit: number): Promise<void> {
    let batch = first;
    while (batch.length > 0) {
      try {
        const decisions = await this.#takeMany(accountId, bucket, limit, batch.length);
        batch.forEach((waiter, i) => waiter.resolve(decisions[i] as RateDecision));
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
      const waiting = this.#lanes.get(lane) ?? [];
      batch = waiting.splice(0, maxBatch);
    }
    this.#lanes.delete(lane);
  }

  async #takeMany(accountId: string, bucket: Bucket, limit: number, count: number): Promise<RateDecision[]> {
    const now = Math.floor(this.clock.now());
    const [row] = await this.conn.queryPrepared<TakeRow>(
      'SELECT granted, used, first_at, leaves_at FROM tryon_rate_take_n($1, $2, $3, $4, $5, $6)',
      [accountId, bucket, limit, now, windowMs, count],
    );
    if (!row) throw new Error('the rate-limit window gave no answer');
    const reset = Math.ceil((row.first_at + windowMs - now) / 1000);
    const retryAfter = Math.max(1, Math.ceil(((row.leaves_at ?? now) + windowMs - now) / 1000));
    return Array.from(
      { length: count },
      (_, i): RateDecision =>
        i < row.granted
          ? { allowed: true, limit, remaining: limit - row.used - i - 1, resetSeconds: reset }
          : { allowed: false, limit, retryAfterSeconds: retryAfter },
    );
  }
}
