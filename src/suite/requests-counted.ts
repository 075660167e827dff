/**
 * What the run sent against each rate limit, and how many of those requests the target answered with
 * 429: the pacer's counts, left on every test's meta as they stood when it settled, so the report can say
 * what the target counted (report/requests-counted.ts sums the workers' last counts).
 */
import type { BucketCount } from '../client/pacer.ts';
import type { RateBucket } from '../contract/rate-limits.ts';

/** Per bucket: requests sent, and of them answered 429. */
export type RequestCounts = Readonly<Record<RateBucket, BucketCount>>;

/** The counts of one worker when a test settled. */
export interface RequestsCounted {
  /** The worker that counted (its pacer is its own). */
  readonly worker: string;
  readonly buckets: Readonly<Record<RateBucket, BucketCount>>;
}

declare module 'vitest' {
  interface TaskMeta {
    /** The requests this test's worker had sent to each limited bucket when the test settled. */
    requestsCounted?: RequestsCounted;
  }
}

/** This worker's counts, from its pacer. */
export function requestsCounted(counts: Readonly<Record<RateBucket, BucketCount>>): RequestsCounted {
  return { worker: process.env.VITEST_POOL_ID ?? '1', buckets: counts };
}
