/**
 * The types of known failures (`run --expect FILE`): an entry as written, and what a run made of it.
 * Types only, so that the report's types and the code that applies them share them without a cycle.
 */

/** One entry of an expectations file. */
export interface Expectation {
  /** A requirement ID of the catalogue. */
  readonly id: string;
  /** Why it is known to fail on this target. */
  readonly reason: string;
  /** An http(s) URL: the ticket, issue or discussion. */
  readonly link?: string;
  /** The last day (YYYY-MM-DD, UTC) the entry holds; after it the entry is stale. */
  readonly expires?: string;
}

/** An expectations file as read: its entries, where it came from, and whether stale entries fail the run. */
export interface Expectations {
  readonly file: string;
  readonly strict: boolean;
  readonly entries: readonly Expectation[];
}

/**
 * What became of an entry: `failing` as expected; `unexpectedly-passing` (remove the entry);
 * `expired` past its date; `not-judged` when the run gave its requirement no pass or fail.
 */
export type ExpectationStatus = 'failing' | 'unexpectedly-passing' | 'expired' | 'not-judged';

/** One entry with what the run made of it. */
export interface ExpectationResult extends Expectation {
  readonly status: ExpectationStatus;
}

/** The report's record of the expectations file the run was given. */
export interface ExpectationsReport {
  readonly file: string;
  readonly strict: boolean;
  readonly entries: readonly ExpectationResult[];
}
