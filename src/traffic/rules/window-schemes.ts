/**
 * The ways a target may count "12 per minute" that explain a burst of limit + 1 let through within a
 * minute, as the suite allows them ("a fixed window crossing its boundary"): fixed windows aligned on
 * the server's clock, one phase for every account; or fixed windows of each account's own, whose
 * first cannot end within a minute of the account's making (its window opens no earlier). A burst
 * breaks the limit when neither way explains it. Times are the server's (server-clock.ts): bursts of
 * one segment compare exactly, across segments the phases widen by the offsets' uncertainty; `reset`
 * when times stop being comparable with earlier ones.
 */
import { rateWindowMs, type RateBucket } from '../../contract/rate-limits.ts';
import { CappedMap } from '../capped-map.ts';
import type { Placed } from './server-clock.ts';
import { allPhases, narrowPhases, type Phases, widenPhases } from './window-phases.ts';

interface Aligned {
  phases: Phases;
  /** The clock segment the phases are reckoned in, and how far its offset may be off. */
  segment: number;
  half: number;
}

export class WindowSchemes {
  /** Phases of server-aligned fixed windows still possible, per bucket. */
  readonly #aligned = new Map<RateBucket, Aligned>();
  /** When each account was made (the server's time, at the least). */
  readonly #made: CappedMap<string, number>;

  constructor(accounts: number) {
    this.#made = new CappedMap(accounts);
  }

  /** Test control made `account` in an answer placed at `at` on the server's clock. */
  made(account: string, at: Placed): void {
    this.#made.set(account, at.from - at.half);
  }

  /** Times from here on cannot be compared with earlier ones. */
  reset(): void {
    this.#made.clear();
    this.#aligned.clear();
  }

  /**
   * Whether a burst of one account, placed `at` on the server's clock, is explained, narrowing what is
   * still possible; `own` is the account's own phases so far, returned narrowed.
   */
  explains(bucket: RateBucket, account: string, at: Placed, own: Phases): [boolean, Phases] {
    const made = this.#made.get(account);
    const mine =
      made !== undefined && at.to + at.half < made + rateWindowMs
        ? []
        : narrowPhases(own, at.from, at.to, rateWindowMs);
    // A burst across a clock move cannot be placed on one reckoning: aligned windows may explain it.
    if (at.segment === undefined) return [true, mine];
    const known = this.#aligned.get(bucket);
    const phases =
      known === undefined
        ? allPhases(rateWindowMs)
        : known.segment === at.segment
          ? known.phases
          : widenPhases(known.phases, known.half + at.half, rateWindowMs);
    const aligned = narrowPhases(phases, at.from, at.to, rateWindowMs);
    this.#aligned.set(bucket, { phases: aligned, segment: at.segment, half: at.half });
    return [aligned.length > 0 || mine.length > 0, mine];
  }
}
