/**
 * One family of passive rules: it reads every exchange (cheaply: a few map lookups), keeps bounded
 * state per account and per try-on, and writes what it judged into the ledger under the run's
 * requirement IDs.
 */
import type { RateLimits } from '../../contract/rate-limits.ts';
import type { Ledger } from '../ledger.ts';
import type { ControlCall } from './control-calls.ts';
import type { KeyBook } from './key-book.ts';
import type { SeenStarts } from './seen-starts.ts';
import type { ServerClock } from './server-clock.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';
import type { RequestView, TrafficView } from '../traffic-view.ts';

export interface PassiveRule {
  /** The family's name: the report's test names it (`traffic > <family> > <id>`). */
  readonly family: string;
  observe(v: TrafficView): void;
  /**
   * A request the client dropped before any answer came: nothing of the server's shows, but the server
   * may have acted on it (started a try-on, charged, bound a key), which a rule across exchanges allows for.
   */
  unanswered?(te: TrafficExchange, request: RequestView): void;
  /**
   * A test-control call seen in the traffic (clock, limits, credits, keys), in an exchange begun at
   * `startedAt` and answered at `at` (epoch ms).
   */
  control?(call: ControlCall, at: number, startedAt: number): void;
  /** State let go past its caps (accounts, try-ons, keys), for the report. */
  notKept(): number;
}

/** What every rule is given. */
export interface RuleSetup {
  readonly ledger: Ledger;
  /** The path of the target's base URL, as the client sees it (default `/api/v1`). */
  readonly basePath: string;
  /** The per-minute limits judged: the documented ones, or those the user declared; `none`: not judged. */
  readonly limits: RateLimits | 'none';
  /** A JSON pointer to the balance in GET /account's body; else its only numeric field. */
  readonly balancePath?: string;
  /** Hosts a resultUrl may name besides the one each request was sent to (a proxy's upstream). */
  readonly hosts: readonly string[];
  readonly caps: JudgeCaps;
  /** Which key digests test control tied to which account, and the keys it retired. */
  readonly keys: KeyBook;
  /** The try-ons seen started so far (the exchange being judged is noted after every rule saw it). */
  readonly starts: SeenStarts;
  /** The server's clock as test control's answers show it (fed before the rules see a control call). */
  readonly clock: ServerClock;
}

/** How much state the judge keeps. */
export interface JudgeCaps {
  /** Accounts followed by each rule; the least recently seen is let go past it. */
  readonly accounts: number;
  /** Try-ons followed per account. */
  readonly tryOnsPerAccount: number;
  /** Idempotency keys followed per account. */
  readonly keysPerAccount: number;
}

/** Enough for a suite run's hundreds of accounts; at most 40,000 try-ons and as many keys, each a few small fields. */
export const defaultCaps: JudgeCaps = { accounts: 200, tryOnsPerAccount: 200, keysPerAccount: 200 };
