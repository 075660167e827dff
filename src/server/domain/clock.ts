/**
 * The server's clock (spec: Limits — every expiry and rate-limit window reads it). Test control can
 * move it forward; timers for the sync wait and generation latency stay on real time on purpose,
 * because a client really waits for those.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Real time plus an offset that only ever grows. */
export class AdvanceableClock implements Clock {
  #offsetMs = 0;

  constructor(private readonly base: () => number = Date.now) {}

  now(): number {
    return this.base() + this.#offsetMs;
  }

  /** Moves the clock forward (test control: "advance the clock"). */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    this.#offsetMs += ms;
    return this.now();
  }
}
