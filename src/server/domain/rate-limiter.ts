/**
 * Per-account rate limits (spec: Limits; POST /tryons rule 5): a rolling 60-second window per
 * account and bucket. Retry-After is the whole seconds until the request that must leave the window
 * for one more to fit leaves it, so waiting that long lets the next request through.
 */
import { rateWindowMs } from '../../contract/rate-limits.ts';
import type { Clock } from './clock.ts';

export type Bucket = 'starts' | 'polls' | 'uploads';

export const windowMs = rateWindowMs;

export type RateDecision =
  | { readonly allowed: true; readonly limit: number; readonly remaining: number; readonly resetSeconds: number }
  | { readonly allowed: false; readonly limit: number; readonly retryAfterSeconds: number };

/**
 * The requests of one account and bucket, oldest first, run-length encoded: `counts[i]` requests
 * came at `times[i]` (consecutive requests in the same millisecond share one entry). Entries from
 * `head` on are in the window; `count` is the number of requests they hold.
 */
export interface WindowLog {
  times: number[];
  counts: number[];
  head: number;
  count: number;
}

/** Counts one request at `now` in `log`. */
export function append(log: WindowLog, now: number): void {
  const last = log.times.length - 1;
  if (last >= log.head && log.times[last] === now) log.counts[last] = (log.counts[last] ?? 0) + 1;
  else {
    log.times.push(now);
    log.counts.push(1);
  }
  log.count++;
}

/**
 * The time of the request `n` places after the oldest in the window (0: the oldest itself), or
 * undefined when the window holds no such request (`n` negative, fractional or past the newest).
 */
export function requestAt(log: WindowLog, n: number): number | undefined {
  if (!Number.isInteger(n) || n < 0) return undefined;
  let before = 0;
  for (let i = log.head; i < log.times.length; i++) {
    before += log.counts[i] ?? 0;
    if (n < before) return log.times[i];
  }
  return undefined;
}

/**
 * The rate-limit windows: this process's (RateLimiter), or one shared by every instance on a database
 * (server/cluster/shared-rate-limiter.ts), whose answer is a promise.
 */
export interface RateLimits {
  /**
   * Counts one request if the window has room; otherwise says how long to wait. Shared windows only: given
   * `epoch` (that of the cached reads the request was admitted with), a take that finds the shared epoch
   * moved counts nothing and rejects with StaleReads.
   */
  take(accountId: string, bucket: Bucket, limit: number, epoch?: number): RateDecision | Promise<RateDecision>;
  /** Shared windows only: the epoch of this instance's cached reads, and a fresh read of it (and of the clock). */
  readonly reads?: { epoch(): number; refresh(): Promise<void> };
}

/** A take refused, uncounted, because the reads the request was admitted with are older than the shared epoch. */
export class StaleReads extends Error {
  override readonly name = 'StaleReads';
}

/**
 * Sliding-window log limiter; memory is bounded by the limits, and by one entry per millisecond of the
 * window whatever the limits (so raised limits do not keep the garbage collector busy). Expired entries are
 * dropped from the front by moving `head` and compacted now and then: O(1) amortised per request.
 */
export class RateLimiter implements RateLimits {
  readonly #logs: Record<Bucket, Map<string, WindowLog>> = { starts: new Map(), polls: new Map(), uploads: new Map() };

  constructor(private readonly clock: Clock) {}

  /** Counts one request if the window has room; otherwise says how long to wait. */
  take(accountId: string, bucket: Bucket, limit: number): RateDecision {
    const now = this.clock.now();
    const logs = this.#logs[bucket];
    let log = logs.get(accountId);
    if (!log) {
      log = { times: [], counts: [], head: 0, count: 0 };
      logs.set(accountId, log);
    }
    const { times, counts } = log;
    while (log.head < times.length && (times[log.head] ?? now) <= now - windowMs) log.count -= counts[log.head++] ?? 0;
    if (log.head > 1024 && log.head * 2 > times.length) {
      log.times = times.slice(log.head);
      log.counts = counts.slice(log.head);
      log.head = 0;
    }
    const count = log.count;
    if (count >= limit) {
      // The request that must leave the window before one more fits: the limit-th newest.
      const oldest = requestAt(log, count - limit) ?? now;
      return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    append(log, now);
    const first = log.times[log.head] ?? now;
    return {
      allowed: true,
      limit,
      remaining: limit - count - 1,
      resetSeconds: Math.ceil((first + windowMs - now) / 1000),
    };
  }

  /** Forgets every window (test control, after the limits change). */
  reset(): void {
    for (const logs of Object.values(this.#logs)) logs.clear();
  }
}
