/** A test's time allowance, from what it declares it may send (issue "A run against a real target"). */
import type { Cost } from './cost.ts';

/** The documented limits per minute the allowance of a test is computed at (spec: Limits). */
export const perMinute = { starts: 12, polls: 60, uploads: 30 } as const;

/**
 * How long a test may run: what its declared requests take at the documented limits (every minute
 * window it may have to wait out, plus one), on top of what the test itself asks for or two
 * minutes. A rate-limit wait can then never time a test out; if one still does, the verdict is
 * inconclusive (src/report/verdict.ts), never a failure of the target.
 */
export function allowanceMs(cost: Cost, asked: number | undefined): number {
  const windows = (Object.keys(perMinute) as Array<keyof typeof perMinute>).reduce((n, bucket) => n + Math.ceil(cost[bucket] / perMinute[bucket]), 0);
  return (asked ?? 120_000) + windows * 60_000;
}

