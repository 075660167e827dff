/**
 * The words a conformance test declares its cost in: what it may spend at most (`Cost`), what it
 * typically spends (`Typical`), and what it is worth when credits are short (`Value`). The run's
 * plan, estimate and budget order read them; the suite only declares them.
 */

/** What a test may spend at most: credits, and requests against each rate limit. */
export interface Cost {
  readonly credits: number;
  readonly starts: number;
  readonly polls: number;
  readonly uploads: number;
}

/**
 * What a test typically sends and spends against a conforming target without test control (the
 * configured accounts, the documented limits) at the run's profile; absent figures are the declared
 * bounds. The input images every test shares are uploaded once per account (uploaded-inputs.ts), so
 * they count in the first test that uploads them.
 */
export interface Typical {
  readonly credits?: number;
  readonly starts?: number;
  readonly polls?: number;
  readonly uploads?: number;
  /**
   * Try-ons it waits for to finish, one after another (try-ons waited for together count once), by polling
   * or on the sync endpoint.
   */
  readonly finishes?: number;
  /**
   * It waits until no start of the run is left in the window, then sends its starts unpaced (a test of the
   * limit itself).
   */
  readonly emptiesStartsWindow?: boolean;
  /** Seconds it waits on purpose besides pacing and generation (a Retry-After it honours). */
  readonly waitsSeconds?: number;
  /**
   * Timings of the target it waits out, one after another: a held sync request (about 55 s, or what test
   * control declares), a slow generation, the image-fetch deadline (12 s, or declared).
   */
  readonly waits?: readonly TimedWait[];
}

/** A timing of the target a test waits out, as the estimate counts it (estimate.ts). */
export type TimedWait = 'sync-wait' | 'slow-generation' | 'fetch-deadline';

/** What a test that spends credits is worth to a user with a small budget, most valuable first. */
export const valueRanks = ['happy-path', 'ledger', 'rest'] as const;
export type Value = (typeof valueRanks)[number];

export const valueTitles: Readonly<Record<Value, string>> = {
  'happy-path': 'the happy path (a start polled to success, its resultUrl and AI label, a sync success)',
  ledger: 'the ledger and refunds',
  rest: 'the rest',
};
