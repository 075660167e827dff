/**
 * Pacing under the documented limits (spec: Limits), or the ones the user declared: before a request to a
 * limited bucket, wait until its rolling window has room. A 429's Retry-After, or a `RateLimit` field saying
 * nothing is left, blocks the bucket until then; a `RateLimit-Policy` the target advertises for an account's
 * bucket replaces the limit it is paced by (rate-limit-advice.ts decides which).
 */
import { rateWindowMs as windowMs, type RateBucket, type RateLimits } from '../contract/rate-limits.ts';

export type Bucket = RateBucket;
export type Limits = RateLimits;

/** One quota to keep within: `limit` requests in any `windowMs`. */
export interface Quota {
  readonly limit: number;
  readonly windowMs: number;
}

/** The longest window a quota may have: a run is shorter, and a longer one only keeps more timestamps. */
export const maxQuotaWindowMs = 3_600_000;
/** The longest a bucket is blocked, whatever a target asks: past it, the next request finds out again. */
export const maxBlockMs = 120_000;

/** What the run sent to one bucket, over all accounts, and how many of those answers were 429. */
export interface BucketCount {
  readonly sent: number;
  readonly limited: number;
}

export interface PacerOptions {
  readonly limits: Limits;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told about every wait, for the progress line. */
  readonly onWait?: (bucket: Bucket, ms: number) => void;
  /** Safety margin added to every window (clock skew between us and the target). */
  readonly marginMs?: number;
  /** While true nothing waits (the run learned the target counts nothing); requests are still counted. */
  readonly unpaced?: () => boolean;
}

export class Pacer {
  readonly #sent = new Map<string, number[]>();
  readonly #blockedUntil = new Map<string, number>();
  readonly #advertised = new Map<string, readonly Quota[]>();
  readonly #counts: Record<Bucket, { sent: number; limited: number }> = {
    starts: { sent: 0, limited: 0 },
    polls: { sent: 0, limited: 0 },
    uploads: { sent: 0, limited: 0 },
  };
  #limits: Limits;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(private readonly o: PacerOptions) {
    this.#limits = o.limits;
    this.#now = o.now ?? Date.now;
    this.#sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  setLimits(limits: Limits): void {
    this.#limits = limits;
  }

  get limits(): Limits {
    return this.#limits;
  }

  /** Waits until `account`'s `bucket` has room, then counts one request. */
  async take(account: string, bucket: Bucket): Promise<void> {
    const key = `${account}\u0000${bucket}`;
    if (this.o.unpaced?.() === true) return this.record(account, bucket);
    for (;;) {
      const now = this.#now();
      const margin = this.o.marginMs ?? 250;
      const quotas = this.#quotas(key, bucket);
      const longest = Math.max(...quotas.map((q) => q.windowMs));
      // Forgetting what left the window only prunes: the wait reads the newest `limit` entries either way.
      // Stryker disable next-line MethodExpression,ArrayDeclaration,ConditionalExpression
      // Stryker disable next-line EqualityOperator,ArithmeticOperator
      const sent = (this.#sent.get(key) ?? []).filter((t) => t > now - longest - margin);
      this.#sent.set(key, sent);
      const blocked = (this.#blockedUntil.get(key) ?? 0) - now;
      const full = quotas.map(({ limit, windowMs: w }) => {
        const inWindow = sent.filter((t) => t > now - w - margin);
        return inWindow.length >= limit ? (inWindow[inWindow.length - limit] ?? now) + w + margin - now : 0;
      });
      const wait = Math.max(blocked, ...full);
      if (wait <= 0) {
        sent.push(now);
        return;
      }
      this.o.onWait?.(bucket, wait);
      await this.#sleep(wait);
    }
  }

  /** Counts a request that was sent without pacing (a test probing the limit on purpose). */
  record(account: string, bucket: Bucket): void {
    const key = `${account}\u0000${bucket}`;
    this.#sent.set(key, [...(this.#sent.get(key) ?? []), this.#now()]);
  }

  /** Counts a request of `bucket` the target answered (every attempt, paced or not), and whether with 429. */
  answered(bucket: Bucket, status: number): void {
    this.#counts[bucket].sent++;
    if (status === 429) this.#counts[bucket].limited++;
  }

  /** What the run sent to each bucket so far (answered requests), and the 429s it got. */
  counts(): Readonly<Record<Bucket, BucketCount>> {
    const { starts, polls, uploads } = this.#counts;
    return { starts: { ...starts }, polls: { ...polls }, uploads: { ...uploads } };
  }

  /** Waits until no request of ours is left in `bucket`'s window, so a test starts from an empty window. */
  async idle(account: string, bucket: Bucket): Promise<void> {
    if (this.o.unpaced?.() === true) return;
    const key = `${account}\u0000${bucket}`;
    const margin = this.o.marginMs ?? 250;
    // Stryker disable next-line ArrayDeclaration: an unused bucket's 0 matters only on a clock a minute from 1970
    const longest = Math.max(...this.#quotas(key, bucket).map((q) => q.windowMs));
    const last = Math.max(...(this.#sent.get(key) ?? [0]), (this.#blockedUntil.get(key) ?? 0) - longest);
    const wait = last + longest + margin - this.#now();
    if (wait > 0) {
      this.o.onWait?.(bucket, wait);
      await this.#sleep(wait);
    }
  }

  /** A 429 said to wait `seconds` (or nothing was left): nothing more goes to that bucket until then. */
  block(account: string, bucket: Bucket, seconds: number): void {
    const key = `${account}\u0000${bucket}`;
    const ms = Math.min(Math.max(0, seconds * 1000), maxBlockMs);
    this.#blockedUntil.set(key, Math.max(this.#blockedUntil.get(key) ?? 0, this.#now() + ms));
  }

  /** The target advertised the quotas of an account's bucket: they replace its limit; none restores it. */
  adopt(account: string, bucket: Bucket, quotas: readonly Quota[]): void {
    const key = `${account}\u0000${bucket}`;
    const usable = quotas.filter((q) => q.limit >= 1 && q.windowMs >= 1_000 && q.windowMs <= maxQuotaWindowMs);
    if (usable.length === 0) this.#advertised.delete(key);
    else this.#advertised.set(key, usable.slice(0, 8));
  }

  /** The quotas `bucket` of this account is paced by. */
  #quotas(key: string, bucket: Bucket): readonly Quota[] {
    return this.#advertised.get(key) ?? [{ limit: this.#limits[bucket], windowMs }];
  }
}
