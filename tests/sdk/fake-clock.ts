/**
 * The clock the client's tests inject: every sleep is recorded and passes at once (after one turn of the
 * event loop), and a client that sleeps more than `bound` times is ended, so one that never stops fails
 * in milliseconds. An aborted call's sleep throws its reason, as a real one would.
 */
import type { ClientClock } from '../../src/sdk/index.ts';

export interface FakeClockOptions {
  /** The clock's first reading (ms since the epoch). */
  readonly start?: number;
  /** The most sleeps a call may take; undefined for no bound. */
  readonly bound?: number;
  /** Called at each sleep, after the clock moved. */
  readonly onSleep?: () => void;
}

/** A recording clock; `sleeps` lists every wait the client asked for, in ms. */
export function fakeClock({ start = 0, bound, onSleep }: FakeClockOptions = {}): ClientClock & {
  readonly sleeps: number[];
} {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    async sleep(ms, signal) {
      if (bound !== undefined && sleeps.length >= bound)
        throw new Error(`the client slept ${bound} times and kept going`);
      sleeps.push(ms);
      now += ms;
      onSleep?.();
      await new Promise((r) => setImmediate(r));
      if (signal?.aborted) throw signal.reason;
    },
  };
}
