/**
 * The ways a target may count "12 per minute" that explain a burst of limit + 1 let through within a
 * minute, as the suite allows them ("a fixed window crossing its boundary"): fixed windows aligned on
 * the server's clock, one phase for every account; or fixed windows of each account's own, whose
 * first cannot end within a minute of the account's making (its window opens no earlier). A burst
 * breaks the limit when neither way explains it. The server's clock is read as real time plus the
 * offset test control's clock answers show (`now`); a move whose time is not said starts afresh.
 */
import { rateWindowMs, type RateBucket } from '../../contract/rate-limits.ts';
import { CappedMap } from '../capped-map.ts';
import { allPhases, narrowPhases, type Phases } from './window-phases.ts';

export class WindowSchemes {
  /** Phases of server-aligned fixed windows still possible, per bucket, on the server's clock. */
  readonly #aligned = new Map<RateBucket, Phases>();
  /** The server's clock less real time, as a range (ms). */
  #offset = { lo: 0, hi: 0 };
  /** When each account was made (the start of test control's answer), while no clock move followed. */
  readonly #made: CappedMap<string, number>;

  constructor(accounts: number) {
    this.#made = new CappedMap(accounts);
  }

  /** Test control made `account` in an exchange begun at `startedAt`. */
  made(account: string, startedAt: number): void {
    this.#made.set(account, startedAt);
  }

  /** Test control moved the clock; `now` as its answer said, if it did, in an exchange from `startedAt` to `endedAt`. */
  clockMoved(now: number | undefined, startedAt: number, endedAt: number): void {
    this.#made.clear();
    if (now === undefined) {
      this.#aligned.clear();
      return;
    }
    this.#offset = { lo: now - endedAt, hi: now - startedAt };
  }

  /**
   * Whether a burst from `from` to `to` (real time) of one account is explained, narrowing what is
   * still possible; `own` is the account's own phases so far (real time), returned narrowed.
   */
  explains(bucket: RateBucket, account: string, from: number, to: number, own: Phases): [boolean, Phases] {
    const aligned = narrowPhases(
      this.#aligned.get(bucket) ?? allPhases(rateWindowMs),
      from + this.#offset.lo,
      to + this.#offset.hi,
      rateWindowMs,
    );
    this.#aligned.set(bucket, aligned);
    const made = this.#made.get(account);
    const mine = made !== undefined && to < made + rateWindowMs ? [] : narrowPhases(own, from, to, rateWindowMs);
    return [aligned.length > 0 || mine.length > 0, mine];
  }
}
