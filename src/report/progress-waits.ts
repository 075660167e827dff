/**
 * What the run is waiting for, as the progress line says it: the current wait (a rate limit's window, a
 * try-on polled until it leaves pending, a held sync answer), since when, and the most it may still take;
 * else the test that is running, since when, and its time limit. The reporter prints a heartbeat from it
 * whenever nothing was printed for a while, so a run is never silent, in CI as on a terminal.
 */
import { formatDuration } from './format.ts';

/** A wait the suite told of. */
export interface WaitNotice {
  readonly what: string;
  readonly ms: number;
  readonly exact?: boolean;
}

interface Wait {
  readonly what: string;
  readonly since: number;
  readonly until: number;
}

/** The test that is running, as the heartbeat names it. */
export interface RunningTest {
  readonly name: string;
  readonly since: number;
  /** Its time limit in ms, when it has one. */
  readonly limitMs?: number;
}

/** Waits shorter than this are not announced when they begin (the pacer also reports short ones). */
export const announceFromMs = 5_000;

export class WaitWatch {
  #wait: Wait | undefined;

  /**
   * A wait began (or the same one was told again: it keeps its start). Returns the line that announces it,
   * when it is certain to last long enough to be worth a line.
   */
  begin(notice: WaitNotice, now: number): string | undefined {
    const same = this.current(now)?.what === notice.what;
    const since = same && this.#wait !== undefined ? this.#wait.since : now;
    this.#wait = { what: notice.what, since, until: now + Math.max(0, notice.ms) };
    if (same || notice.exact !== true || notice.ms < announceFromMs) return undefined;
    return `… waiting ${Math.ceil(notice.ms / 1000)} s for ${notice.what}`;
  }

  /** The wait for `what` is over (another one is left alone). */
  end(what: string): void {
    if (this.#wait?.what === what) this.#wait = undefined;
  }

  clear(): void {
    this.#wait = undefined;
  }

  /** The wait still running at `now`, if any. */
  current(now: number): Wait | undefined {
    if (this.#wait !== undefined && this.#wait.until <= now) this.#wait = undefined;
    return this.#wait;
  }

  /** `waiting ≤ 32 s more for the starts rate limit (10 s so far)`, for the live line; undefined with no wait. */
  countdown(now: number): string | undefined {
    const wait = this.current(now);
    if (wait === undefined) return undefined;
    const so = Math.floor((now - wait.since) / 1000);
    return `waiting ≤ ${Math.ceil((wait.until - now) / 1000)} s more for ${wait.what}${so > 0 ? ` (${so} s so far)` : ''}`;
  }

  /**
   * The heartbeat: what the run waits for, how long it has waited, and how long it may still wait.
   * `… waiting for the starts rate limit: 20 s so far, at most 41 s more (rate limits > …)`.
   */
  heartbeat(now: number, test: RunningTest | undefined, done: string): string {
    const wait = this.current(now);
    const inTest = test === undefined ? '' : ` (${test.name})`;
    if (wait !== undefined) {
      const waited = formatDuration(now - wait.since);
      return `… waiting for ${wait.what}: ${waited} so far, at most ${formatDuration(wait.until - now)} more${inTest}`;
    }
    if (test !== undefined) {
      const left =
        test.limitMs === undefined
          ? ''
          : `, at most ${formatDuration(Math.max(0, test.since + test.limitMs - now))} more`;
      return `… running ${test.name}: ${formatDuration(now - test.since)} so far${left} (${done})`;
    }
    return `… waiting for the next test to start (${done})`;
  }
}
