/**
 * `tryon-conformance/client`: a typed client of the Virtual Try-On API for server-side code.
 * @example
 * const client = new TryOnClient({ baseUrl: 'https://api.example.com/api/v1', apiKey: process.env.TRYON_API_KEY! });
 * const result = await client.tryOn({ personImageUrl, garmentImageUrl, consent: true });
 * if (result.status === 'success') show(result.resultUrl);
 */
export {
  TryOnClient,
  type Account,
  type CallOptions,
  type StartOptions,
  type TryOn,
  type TryOnFinished,
  type TryOnInput,
  type TryOnStarted,
  type UploadedImage,
  type UploadFile,
} from './client.ts';
export {
  TryOnAbortedError,
  TryOnApiError,
  TryOnBadResponseError,
  TryOnError,
  TryOnGaveUpError,
  TryOnInBrowserError,
  TryOnNetworkError,
  type ApiErrorCode,
  type ClientErrorCode,
} from './errors.ts';
export { minSyncTimeoutMs, type ClientClock, type TryOnClientOptions } from './options.ts';
export { backoffMs, isRetryableStatus } from './retry-policy.ts';
