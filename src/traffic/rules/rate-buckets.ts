/**
 * Which per-minute limit a request of an operation counts against (spec: Limits, "Starting try-ons"
 * shared by `POST /tryons` and `POST /tryons/sync`, "Polling (`GET /tryons/{id}`)", "Uploading images").
 */
import type { RateBucket } from '../../contract/rate-limits.ts';
import type { Followed } from '../traffic-view.ts';

/** The bucket of an operation's requests, if it has one. */
export function bucketOf(op: Followed | undefined): RateBucket | undefined {
  if (op === 'createTryOn' || op === 'createTryOnSync') return 'starts';
  if (op === 'getTryOn') return 'polls';
  if (op === 'uploadImage') return 'uploads';
  return undefined;
}
