/**
 * The spec's rate limits, written once (spec: Limits):
 *
 *   | Starting try-ons | 12 per minute per account, shared by `POST /tryons` and `POST /tryons/sync`; … |
 *   | Polling (`GET /tryons/{id}`) | 60 per minute per account |
 *   | Uploading images | 30 per minute per account |
 *
 * rate-limits.test.ts holds these figures against the spec's table and its endpoints' "Rate limit:" lines.
 */

/** The limited kinds of request: starts (create and sync), polls (get try-on), uploads. */
export type RateBucket = 'starts' | 'polls' | 'uploads';

/** Requests per window, per account, of each bucket. */
export type RateLimits = Readonly<Record<RateBucket, number>>;

/** The limits the spec documents. */
export const documentedLimits: RateLimits = Object.freeze({ starts: 12, polls: 60, uploads: 30 });

/** The window the limits count in: "per minute". */
export const rateWindowSeconds = 60;
export const rateWindowMs = rateWindowSeconds * 1000;

/** The buckets, in the order of the spec's table. */
export const rateBuckets: readonly RateBucket[] = Object.freeze(['starts', 'polls', 'uploads']);
