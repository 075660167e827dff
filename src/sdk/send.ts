/**
 * One API call with the spec's retries (Errors rules 2-4): the same request, so the same
 * Idempotency-Key, is sent again after a 429, 500, 502, 503 or a network failure, waiting
 * Retry-After when the answer has one and otherwise 1, 2, then 4 s; a 400, 401, 402, 403, 413 or
 * 422 (any other answer) is never sent again, nor is a redirect followed or an answer over the body
 * bound. After the last retry the error is thrown, typed.
 */
import {
  TryOnAbortedError,
  TryOnApiError,
  TryOnBadResponseError,
  TryOnNetworkError,
  type ApiErrorCode,
} from './errors.ts';
import type { ResolvedOptions } from './options.ts';
import { urlOnBase } from './on-base.ts';
import { redactValue } from './redact.ts';
import { isRetryableStatus, retryAfterSeconds, waitBeforeRetry } from './retry-policy.ts';
import { sendOnce, TransportFailure, type Answer, type Attempt } from './transport.ts';

export interface Call {
  readonly method: 'GET' | 'POST';
  /** A path under the base URL (`/tryons`): the key goes to the base URL's origin only. */
  readonly path: string;
  readonly body?: Attempt['body'];
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Statuses that end the call as a success. */
  readonly ok: readonly number[];
}

export interface Success {
  readonly status: number;
  readonly json: unknown;
  readonly attempts: number;
}

/** Sends `call`, retrying as the spec says, and returns the first answer with a status in `call.ok`. */
export async function send(o: ResolvedOptions, call: Call): Promise<Success> {
  const attempt: Attempt = {
    method: call.method,
    url: urlOnBase(o.baseUrl, call.path),
    headers: {
      authorization: `Bearer ${o.apiKey}`,
      accept: 'application/json',
      'user-agent': o.userAgent,
      ...call.headers,
    },
    ...(call.body !== undefined && { body: call.body }),
    timeoutMs: call.timeoutMs,
    signal: call.signal,
    dispatcher: o.dispatcher,
  };
  for (let retry = 0; ; retry++) {
    let answer: Answer;
    try {
      answer = await sendOnce(attempt);
    } catch (error) {
      if (!(error instanceof TransportFailure)) throw error;
      if (retry >= o.maxRetries)
        throw new TryOnNetworkError(
          error.timeout ? 'CLIENT_TIMEOUT' : 'CLIENT_NETWORK',
          error.message,
          retry + 1,
          error.cause,
        );
      await pause(o, waitBeforeRetry(retry, undefined), call.signal);
      continue;
    }
    if (call.ok.includes(answer.status)) return { status: answer.status, json: answer.json, attempts: retry + 1 };
    const error = apiError(answer, retry + 1, o.apiKey);
    const code = error instanceof TryOnApiError ? error.code : undefined;
    if (!isRetryableStatus(answer.status, code) || retry >= o.maxRetries) throw error;
    const retryAfter = retryAfterSeconds(answer.headers['retry-after']);
    // Never retry before Retry-After has passed: one too long for this call ends it instead.
    if (retryAfter !== undefined && retryAfter * 1000 > o.maxRetryAfterMs) throw error;
    await pause(o, waitBeforeRetry(retry, retryAfter), call.signal);
  }
}

async function pause(o: ResolvedOptions, ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await o.clock.sleep(ms, signal);
  } catch (error) {
    if (signal?.aborted) throw new TryOnAbortedError(signal.reason);
    throw error;
  }
}

function apiError(answer: Answer, attempts: number, apiKey: string): TryOnApiError | TryOnBadResponseError {
  if (answer.status >= 300 && answer.status < 400) {
    const location = redactValue(String(answer.headers.location ?? ''), apiKey);
    const message = `HTTP ${answer.status} redirects to ${JSON.stringify(location)}; the client follows no redirect`;
    return new TryOnBadResponseError(answer.status, message, location);
  }
  const body = answer.json as { error?: unknown; code?: unknown } | undefined;
  if (typeof body?.code !== 'string')
    return new TryOnBadResponseError(answer.status, `HTTP ${answer.status} without the error envelope {error, code}`);
  // The server's words land in logs: no key in them, no control characters, a bounded length.
  const message = typeof body.error === 'string' ? redactValue(body.error, apiKey) : '';
  const code = redactValue(body.code, apiKey) as ApiErrorCode;
  return new TryOnApiError(answer.status, code, message, attempts, retryAfterSeconds(answer.headers['retry-after']));
}
