/**
 * The reference server's one catalogue of API errors (spec: Errors). Each code has its status and a
 * default message; `ApiError` carries one to the error handler, which renders `{error, code}`.
 * A test keeps this catalogue, openapi.yaml's ErrorCode enum and the generated type in step.
 */
import type { components } from '../contract/api-types.gen.ts';

export type ErrorCode = components['schemas']['ErrorCode'];

export const apiErrors = {
  MISSING_IDEMPOTENCY_KEY: { status: 400, message: "Idempotency-Key must be 8-128 letters, digits, '_' or '-'." },
  INVALID_IMAGE_URL: { status: 400, message: 'The image URL must be public HTTPS on the default port.' },
  IMAGE_DOWNLOAD_FAILED: {
    status: 400,
    message: 'The image URL did not give the image with HTTP 200 within 12 seconds.',
  },
  UNSUPPORTED_IMAGE: { status: 400, message: 'Only JPEG and PNG images are accepted.' },
  INVALID_IMAGE_ID: { status: 400, message: 'The image id is unknown, older than 24 hours, or not this account’s.' },
  INVALID_API_KEY: { status: 401, message: 'Missing, malformed or revoked API key.' },
  INSUFFICIENT_CREDITS: { status: 402, message: 'No credits left on this account.' },
  CONSENT_REQUIRED: { status: 403, message: 'consent must be true.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed.' },
  IMAGE_TOO_LARGE: { status: 413, message: 'Images may be at most 4 MB.' },
  PERSON_PHOTO_REJECTED: { status: 422, message: 'The photo must clearly show exactly one adult.' },
  IMAGE_REJECTED: { status: 422, message: 'This image cannot be used for a try-on.' },
  GARMENT_REJECTED: { status: 422, message: 'This item is not available for virtual try-on.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests.' },
  INTERNAL_ERROR: { status: 500, message: 'Internal error.' },
  START_FAILED: { status: 502, message: 'The try-on could not be started; no credit was used.' },
  UNAVAILABLE: { status: 503, message: 'Temporarily unavailable; retry shortly.' },
  INVALID_REQUEST: { status: 400, message: 'The request body is not valid.' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, message: 'A request with this Idempotency-Key is still in progress.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported Content-Type.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This Idempotency-Key was used with a different request body.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request did not arrive in time.' },
} as const satisfies Record<ErrorCode, { status: number; message: string }>;

/** An API error on its way to the client. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = apiErrors[code].message,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = apiErrors[code].status;
  }
}
