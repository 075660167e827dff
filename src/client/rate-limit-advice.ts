/**
 * What an answer tells a paced client about the bucket of its request: how long to send nothing more
 * (`Retry-After` of a 429, always; a `RateLimit` field whose quota has nothing left, for its effective
 * window), and the quotas the target advertises (`RateLimit-Policy`, in requests). "If a response contains
 * both the RateLimit and Retry-After fields, the Retry-After field MUST take precedence" (the draft's
 * Client Behavior).
 */
import type { Quota } from './pacer.ts';
import { parseRateLimit, parseRateLimitPolicy } from './rate-limit-fields.ts';
import { retryAfterMs } from './retry-after.ts';

export interface LimitAdvice {
  /** Seconds to send nothing more to the bucket, and what said so. */
  readonly block?: { readonly seconds: number; readonly because: string };
  /** The quotas the target advertised for the request's bucket, in requests; absent when it said none. */
  readonly quotas?: readonly Quota[];
}

/** Reads `status` and lower-cased `headers` of one answer; foreign data, every field bounded by its reader. */
export function limitAdviceOf(
  response: { readonly status: number; readonly headers: Readonly<Record<string, string>> } | undefined,
  now: number = Date.now(),
): LimitAdvice {
  if (response === undefined) return {};
  const policies = parseRateLimitPolicy(response.headers['ratelimit-policy']);
  const quotas = policies
    ?.filter((p) => p.unit === 'requests' && p.windowSeconds !== undefined && p.quota > 0)
    .map((p) => ({ limit: p.quota, windowMs: (p.windowSeconds ?? 0) * 1000 }));
  const advertised = quotas !== undefined && quotas.length > 0 ? { quotas } : {};
  const retryAfter = response.status === 429 ? retryAfterMs(response.headers['retry-after'], now) : undefined;
  if (retryAfter !== undefined)
    return { block: { seconds: Math.ceil(retryAfter / 1000), because: 'Retry-After of a 429' }, ...advertised };
  const exhausted = parseRateLimit(response.headers.ratelimit)
    ?.filter((l) => l.remaining === 0 && l.resetSeconds !== undefined)
    .map((l) => l.resetSeconds ?? 0);
  if (exhausted !== undefined && exhausted.length > 0)
    return { block: { seconds: Math.max(...exhausted), because: 'RateLimit: no quota left' }, ...advertised };
  return advertised;
}
