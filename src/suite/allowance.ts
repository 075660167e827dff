/** A test's time allowance, from what it declares it may send. */
import { documentedLimits, rateBuckets, rateWindowMs } from '../contract/rate-limits.ts';
import type { Cost } from './cost.ts';

/**
 * How long a test may run: what its declared requests take at the documented limits (every window it
 * may have to wait out, plus one), on top of what the test asks for or two minutes. A rate-limit wait
 * then never times a test out; if one still does, the verdict is inconclusive, not a target failure.
 */
export function allowanceMs(cost: Cost, asked: number | undefined): number {
  const windows = rateBuckets.reduce((n, bucket) => n + Math.ceil(cost[bucket] / documentedLimits[bucket]), 0);
  return (asked ?? 120_000) + windows * rateWindowMs;
}
