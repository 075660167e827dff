/**
 * Per-account rate limits (spec: Limits; POST /tryons rule 5): a rolling 60-second window per
 * account and bucket. Retry-After is the whole seconds until the oldest request in the window
 * leaves it, so waiting that long lets the next request through.
 */
import type { Clock } from './clock.ts';

export type Bucket = 'starts' | 'polls' | 'uploads';

export const windowMs = 60_000;

export type RateDecision =
  | { readonly allowed: true; readonly limit: number; readonly remaining: number; readonly resetSeconds: number }
  | { readonly allowed: false; readonly limit: number; readonly retryAfterSeconds: number };

/** The requests of one account and bucket still in the window, oldest first, from `head` on. */
interface WindowLog {
  times: number[];
  head: number;
}

/**
 * Sliding-window log limiter; memory is bounded by the limits themselves. Expired entries are
 * dropped from the front by moving `head` and compacted now and then, so a request costs O(1)
 * amortised even with limits raised to hundreds of thousands a minute.
 */
export class RateLimiter {
  readonly #log = new Map<string, WindowLog>();

  constructor(private readonly clock: Clock) {}

  /** Counts one request if the window has room; otherwise says how long to wait. */
  take(accountId: string, bucket: Bucket, limit: number): RateDecision {
    const now = this.clock.now();
    const key = `${accountId}\u0000${bucket}`;
    let log = this.#log.get(key);
    if (!log) {
      log = { times: [], head: 0 };
      this.#log.set(key, log);
    }
    const { times } = log;
    while (log.head < times.length && (times[log.head] ?? now) <= now - windowMs) log.head++;
    if (log.head > 1024 && log.head * 2 > times.length) {
      log.times = times.slice(log.head);
      log.head = 0;
    }
    const count = log.times.length - log.head;
    if (count >= limit) {
      // The request that must leave the window before one more fits.
      const oldest = log.times[log.times.length - limit] ?? now;
      return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    log.times.push(now);
    const first = log.times[log.head] ?? now;
    return { allowed: true, limit, remaining: limit - count - 1, resetSeconds: Math.ceil((first + windowMs - now) / 1000) };
  }

  /** Forgets every window (test control, after the limits change). */
  reset(): void {
    this.#log.clear();
  }
}
