/**
 * When one exchange owes the one code the Errors table gives its status. The table gives each such
 * status a meaning ("413 | IMAGE_TOO_LARGE | image larger than 4 MB"), and its code is owed when the
 * request is in that case, not for every answer with the status. Where the meaning is what the status
 * itself says (RFC 9110/6585: 401 no valid credentials, 404 nothing there, 405 method not accepted, 429
 * too many requests, 500 a server fault, 502 on a start that failed, 503 unavailable), the answer
 * shows the case. Where the meaning is narrower than the status (402 "no credits left", 403 "`consent`
 * was not `true`", 413 "image larger than 4 MB"), the code is owed only when the exchange shows the
 * case; another code there is a case the spec leaves open, recorded by the caller.
 */
import type { Answered } from '../client/exchange.ts';
import { jsonObject } from '../shared/json-object.ts';

/** 4 MB however a MB is counted: over 4,194,304 bytes the image is "larger than 4 MB" in both readings. */
export const overFourMbBytes = 4 * 1024 * 1024;

/** Statuses whose table meaning is the status's own meaning: any answer with one is in its case. */
const selfEvident = new Set([401, 404, 405, 429, 500, 502, 503]);

/** The request's JSON body when it is an object (our own request: bounded by what the suite sends). */
function requestObject(ex: Answered): Record<string, unknown> | undefined {
  return jsonObject(ex.request.body);
}

/**
 * Whether `ex` shows the case of the one code its status has in the Errors table, so that another
 * code is a break of the spec rather than a case it leaves open.
 */
export function soleCodeOwed(ex: Answered): boolean {
  const status = ex.response.status;
  if (selfEvident.has(status)) return true;
  // "403 | CONSENT_REQUIRED | `consent` was not `true`": a JSON object whose consent is not true.
  if (status === 403) {
    const body = requestObject(ex);
    return body !== undefined && body.consent !== true;
  }
  // "413 | IMAGE_TOO_LARGE | image larger than 4 MB": an uploaded file over 4 MB. A fetched image's size
  // is not in the exchange; the tests that serve one judge its code.
  if (status === 413) return (ex.request.multipart?.bytes ?? 0) > overFourMbBytes;
  // "402 | INSUFFICIENT_CREDITS | no credits left": the balance is not in the exchange; the credit
  // tests that spend it to 0 judge the code.
  return false;
}
