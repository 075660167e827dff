/**
 * What the spec tells a client to retry, and how long to wait (Errors rules 2-4):
 * "Retry with the same Idempotency-Key on 429, 500, 502, 503 and network timeouts";
 * "Do not retry 400, 401, 402, 403, 413 or 422 unchanged";
 * "Recommended backoff: 1 second, then 2, then 4, and stop after a few attempts; when `Retry-After`
 * is present, wait that long instead."
 */

/**
 * Statuses retried with the same request. 409 IDEMPOTENCY_KEY_IN_USE is the reference server's "the first
 * request with this key is still running" (implementation-defined); it carries Retry-After.
 */
export const retryStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503, 409]);

/** The spec's backoff, one step per retry; its length is the number of retries ("stop after a few attempts"). */
export const backoffMs: readonly number[] = [1_000, 2_000, 4_000];

/** Whether an answer with this status and code is retried unchanged. */
export function isRetryableStatus(status: number, code?: string): boolean {
  if (status === 409) return code === 'IDEMPOTENCY_KEY_IN_USE';
  return retryStatuses.has(status);
}

/** Retry-After in seconds (the spec gives it in seconds), or undefined when absent or not a number. */
export function retryAfterSeconds(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** The wait before retry number `retry` (0-based): Retry-After when present, else 1, 2, then 4 s. */
export function waitBeforeRetry(retry: number, retryAfter: number | undefined): number {
  if (retryAfter !== undefined) return retryAfter * 1000;
  return backoffMs[Math.min(retry, backoffMs.length - 1)] ?? 4_000;
}
