/**
 * The client's errors: one small class per failure, each with a stable `code` to branch on (spec,
 * Errors: "`code` is stable and is what clients branch on"). An answer of the API keeps the API's own
 * code; failures of the client itself use codes that start with `CLIENT_`.
 */
import type { components } from '../contract/api-types.gen.ts';

export type ApiErrorCode = components['schemas']['ErrorCode'];
export type ClientErrorCode =
  | 'CLIENT_IN_BROWSER'
  | 'CLIENT_NETWORK'
  | 'CLIENT_TIMEOUT'
  | 'CLIENT_ABORTED'
  | 'CLIENT_GAVE_UP'
  | 'CLIENT_BAD_RESPONSE';

/** The base of every error the client throws. */
export abstract class TryOnError extends Error {
  abstract readonly code: ApiErrorCode | ClientErrorCode;
}

/** The API answered with its error envelope `{error, code}`, after any retries the spec allows. */
export class TryOnApiError extends TryOnError {
  override readonly name = 'TryOnApiError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** Requests sent for this call, retries included. */
    readonly attempts: number,
    /** Seconds from Retry-After, when the answer had one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

/** The code refuses to run where a browser global is present (Authentication 5: keys stay on the server). */
export class TryOnInBrowserError extends TryOnError {
  override readonly name = 'TryOnInBrowserError';
  readonly code = 'CLIENT_IN_BROWSER';
  constructor() {
    super(
      'tryon-conformance/client runs on a server only: the API key must never reach a browser (spec, Authentication 5)',
    );
  }
}

/** The connection failed or timed out on every attempt. */
export class TryOnNetworkError extends TryOnError {
  override readonly name = 'TryOnNetworkError';
  constructor(
    readonly code: 'CLIENT_NETWORK' | 'CLIENT_TIMEOUT',
    message: string,
    readonly attempts: number,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The caller's AbortSignal fired. */
export class TryOnAbortedError extends TryOnError {
  override readonly name = 'TryOnAbortedError';
  readonly code = 'CLIENT_ABORTED';
  constructor(override readonly cause?: unknown) {
    super('the call was aborted by its AbortSignal');
  }
}

/** Polling gave up: the try-on was still pending when the give-up time passed (GET: "give up after a few minutes"). */
export class TryOnGaveUpError extends TryOnError {
  override readonly name = 'TryOnGaveUpError';
  readonly code = 'CLIENT_GAVE_UP';
  constructor(
    readonly tryOnId: string,
    readonly waitedMs: number,
  ) {
    super(
      `try-on ${tryOnId} was still pending after ${Math.round(waitedMs / 1000)} s of polling; it keeps running, read it later with getTryOn`,
    );
  }
}

/**
 * The answer was not what openapi.yaml documents (no JSON, no envelope, an unknown status, a
 * redirect, a body over the client's bound, a `pollUrl` off the API's origin). Never retried.
 */
export class TryOnBadResponseError extends TryOnError {
  override readonly name = 'TryOnBadResponseError';
  readonly code = 'CLIENT_BAD_RESPONSE';
  constructor(
    readonly status: number,
    message: string,
    /** The offending value the server sent (a `pollUrl`, a `Location`), redacted and truncated. */
    readonly value?: string,
  ) {
    super(message);
  }
}
