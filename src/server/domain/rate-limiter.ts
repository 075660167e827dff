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

/** Sliding-window log limiter; memory is bounded by the limits themselves. */
export class RateLimiter {
  readonly #log = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  /** Counts one request if the window has room; otherwise says how long to wait. */
  take(accountId: string, bucket: Bucket, limit: number): RateDecision {
    const now = this.clock.now();
    const key = `${accountId}\u0000${bucket}`;
    const times = (this.#log.get(key) ?? []).filter((t) => t > now - windowMs);
    if (times.length >= limit) {
      this.#log.set(key, times);
      const oldest = times[times.length - limit] ?? now;
      return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    times.push(now);
    this.#log.set(key, times);
    const first = times[0] ?? now;
    return { allowed: true, limit, remaining: limit - times.length, resetSeconds: Math.ceil((first + windowMs - now) / 1000) };
  }

  /** Forgets every window (test control, after the limits change). */
  reset(): void {
    this.#log.clear();
  }
}
