/**
 * The server's clock (spec: Limits — every expiry and rate-limit window reads it). Test control can
 * move it forward; timers for the sync wait and generation latency stay on real time on purpose,
 * because a client really waits for those.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/**
 * The latest instant the clock may show: the end of year 9999, the last one an ISO 8601 timestamp
 * (`expiresAt`, the control extension's `now`) writes with four digits. A Date reaches only a
 * little further (8.64e15 ms), and every route that formats a date would fail past it.
 */
export const latestInstantMs = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The clock test control moves: this process's own (AdvanceableClock), or one shared by every instance on a
 * database (server/cluster/shared-clock.ts), whose move is a promise.
 */
export interface ControlClock extends Clock {
  /** How far the clock may still move, in milliseconds. */
  headroomMs(): number;
  /** Moves the clock forward and returns the new time; a move past the headroom changes nothing and throws. */
  advance(ms: number): number | Promise<number>;
}

/** Real time plus an offset that only ever grows. */
export class AdvanceableClock implements ControlClock {
  #offsetMs = 0;

  constructor(private readonly base: () => number = Date.now) {}

  now(): number {
    return this.base() + this.#offsetMs;
  }

  /**
   * How far the clock may still move, in milliseconds: 24 hours short of `latestInstantMs`, so
   * that expiries (24 h after now) and dates formatted from now all stay valid.
   */
  headroomMs(): number {
    return Math.max(0, latestInstantMs - 24 * 3_600_000 - this.now());
  }

  /**
   * Moves the clock forward (test control: "advance the clock"); a move past the headroom changes nothing
   * and throws.
   */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    if (ms > this.headroomMs()) throw new RangeError('the clock cannot move past the end of year 9999');
    this.#offsetMs += ms;
    return this.now();
  }
}
