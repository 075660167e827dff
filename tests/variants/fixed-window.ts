/**
 * Rate-limit windows a variant enforces at the proxy instead of the reference's rolling window
 * (spec, Limits: "12 per minute per account"; "Over a rate limit the response is 429 RATE_LIMITED
 * with a Retry-After header in seconds" — neither says the minute is rolling).
 */

/** What a window says about one more request at `now`. */
export type Admission = { readonly admitted: true } | { readonly admitted: false; readonly retryAfterSeconds: number };

/**
 * Fixed windows: the minute is the clock's minute (`floor(now / windowMs)`), every window starts
 * empty, and a refusal's Retry-After is the time left until the next window opens (at least 1 s).
 */
export class FixedWindows {
  readonly #counts = new Map<string, { window: number; count: number }>();

  constructor(readonly windowMs = 60_000) {}

  /** Counts one request of `key` at `now` if the window has room under `limit`. */
  take(key: string, limit: number, now: number): Admission {
    const window = Math.floor(now / this.windowMs);
    const entry = this.#counts.get(key);
    const current = entry && entry.window === window ? entry : { window, count: 0 };
    if (current.count >= limit) {
      const opensAt = (window + 1) * this.windowMs;
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((opensAt - now) / 1000)) };
    }
    current.count++;
    this.#counts.set(key, current);
    return { admitted: true };
  }
}

/**
 * A rolling window that counts only what `commit` confirms (e.g. only try-ons that were really
 * started): `reserve` holds a place while the request is in flight, `commit` or `release` ends it.
 * Retry-After is the time until a place frees up, counting the requests in flight as if they all
 * count now (so it is never shorter than the real wait; at least 1 s).
 */
export class CommittedRollingWindow {
  readonly #log = new Map<string, number[]>();
  readonly #inFlight = new Map<string, number>();

  constructor(readonly windowMs = 60_000) {}

  reserve(key: string, limit: number, now: number): Admission {
    const times = (this.#log.get(key) ?? []).filter((t) => t > now - this.windowMs);
    this.#log.set(key, times);
    const held = this.#inFlight.get(key) ?? 0;
    if (times.length + held >= limit) {
      // Requests in flight may all count, at `now`: the wait is never shorter than the real one.
      const counted = [...times, ...Array.from({ length: held }, () => now)];
      const oldest = counted[counted.length - Math.max(1, limit)] ?? now;
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
    }
    this.#inFlight.set(key, held + 1);
    return { admitted: true };
  }

  /** The reserved request counts, at `now`. */
  commit(key: string, now: number): void {
    this.release(key);
    this.#log.set(key, [...(this.#log.get(key) ?? []), now]);
  }

  /** The reserved request does not count. */
  release(key: string): void {
    this.#inFlight.set(key, Math.max(0, (this.#inFlight.get(key) ?? 0) - 1));
  }
}
