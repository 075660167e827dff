/**
 * Pacing under the documented limits (spec: Limits): before a request to a limited bucket, wait
 * until its rolling window has room. A 429's Retry-After blocks the bucket until then.
 */
import { rateWindowMs as windowMs, type RateBucket, type RateLimits } from '../contract/rate-limits.ts';

export type Bucket = RateBucket;
export type Limits = RateLimits;

export interface PacerOptions {
  readonly limits: Limits;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told about every wait, for the progress line. */
  readonly onWait?: (bucket: Bucket, ms: number) => void;
  /** Safety margin added to every window (clock skew between us and the target). */
  readonly marginMs?: number;
}

export class Pacer {
  readonly #sent = new Map<string, number[]>();
  readonly #blockedUntil = new Map<string, number>();
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
    for (;;) {
      const now = this.#now();
      const margin = this.o.marginMs ?? 250;
      // Forgetting what left the window only prunes: the wait reads the newest `limit` entries either way.
      // Stryker disable next-line MethodExpression,ArrayDeclaration,ConditionalExpression
      // Stryker disable next-line EqualityOperator,ArithmeticOperator
      const sent = (this.#sent.get(key) ?? []).filter((t) => t > now - windowMs - margin);
      this.#sent.set(key, sent);
      const blocked = (this.#blockedUntil.get(key) ?? 0) - now;
      const limit = this.#limits[bucket];
      const full = sent.length >= limit ? (sent[sent.length - limit] ?? now) + windowMs + margin - now : 0;
      const wait = Math.max(blocked, full);
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

  /** Waits until no request of ours is left in `bucket`'s window, so a test starts from an empty window. */
  async idle(account: string, bucket: Bucket): Promise<void> {
    const key = `${account}\u0000${bucket}`;
    const margin = this.o.marginMs ?? 250;
    // Stryker disable next-line ArrayDeclaration: an unused bucket's 0 matters only on a clock a minute from 1970
    const last = Math.max(...(this.#sent.get(key) ?? [0]), (this.#blockedUntil.get(key) ?? 0) - windowMs);
    const wait = last + windowMs + margin - this.#now();
    if (wait > 0) {
      this.o.onWait?.(bucket, wait);
      await this.#sleep(wait);
    }
  }

  /** A 429 said to wait `seconds`: nothing more goes to that bucket until then. */
  block(account: string, bucket: Bucket, seconds: number): void {
    const key = `${account}\u0000${bucket}`;
    this.#blockedUntil.set(key, Math.max(this.#blockedUntil.get(key) ?? 0, this.#now() + seconds * 1000));
  }
}
