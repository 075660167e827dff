/**
 * What the rate-limit tests reach: the per-minute limit of a bucket (documented, or declared with
 * `--limits`), and, without test control, the 429 a test provoked over the starts limit, kept while its
 * Retry-After runs so the next test that needs one waits out its rest instead of filling another window.
 */
import type { Exchange } from '../client/exchange.ts';
import { documentedLimits, type RateBucket } from '../contract/rate-limits.ts';
import type { ConformanceContext } from './conformance.ts';
import { judgedLimit, noLimitDeclared } from './declared-limits.ts';
import type { Actor } from './target.ts';

/**
 * The per-minute limit of `bucket` this test fills: the documented one, or the one the user declared
 * (`--limits`; "raising it is by request to the provider"). A target declared not to limit skips the test.
 */
export function limitToReach(t: ConformanceContext, bucket: RateBucket): number {
  const limit = judgedLimit(t.target.config.limits, bucket);
  if (limit === undefined) return t.skip(noLimitDeclared(bucket));
  if (limit.declared) t.choose(`${bucket}-limit`, `${limit.perMinute} a minute, as declared (--limits)`);
  return limit.perMinute;
}

/** `13th`, `121st`. */
export const ordinal = (n: number): string =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

/**
 * The last 429 over the starts limit a test of this file provoked without test control, while its
 * Retry-After has not passed: the next test that needs one waits out the rest of it instead of filling
 * another window (each fill costs a minute of the run at 12 starts a minute).
 */
let lastOverStarts: OverStarts | undefined;

interface OverStarts {
  readonly filled: Filled;
  readonly at: number;
  readonly retryAfter: number;
}

/** Keeps the 429 a test just provoked and judged, with the Retry-After it named. */
export function noteOverStarts(filled: Filled, retryAfter: number): void {
  lastOverStarts = { filled, at: Date.now(), retryAfter };
}

export interface Filled {
  readonly actor: Actor;
  readonly body: unknown;
  readonly over: Exchange;
}

/** A 429 of `lastOverStarts` whose Retry-After has not passed yet, taken (once). */
export function takeRecentOverStarts(t: ConformanceContext): OverStarts | undefined {
  const last = lastOverStarts;
  lastOverStarts = undefined;
  if (t.target.control || last === undefined || !(last.retryAfter > 0)) return undefined;
  return Date.now() < last.at + last.retryAfter * 1000 ? last : undefined;
}

/**
 * A 429 on request `index` (from 0) of `n` declared a minute, past the documented limit: the target keeps the
 * spec's limit but not the one the user declared. Only the spec's words fail a target, so the test ends
 * inconclusive, saying so. Under the documented limit a 429 is the spec's to judge (the caller's `must`).
 */
export function limitedBelowDeclared(
  t: ConformanceContext,
  bucket: RateBucket,
  index: number,
  n: number,
  status: unknown,
): void {
  const documented = documentedLimits[bucket];
  if (status !== 429 || index < documented || n <= documented) return;
  t.inconclusive(
    `${bucket} request ${index + 1} of a fresh window was answered 429: past the spec's ${documented} a minute, but under the ${n} declared with --limits, which this target does not have`,
  );
}
