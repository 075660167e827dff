/**
 * `Retry-After` as a client honours it (RFC 9110 section 10.2.3): delay-seconds or an HTTP-date. The spec
 * names seconds ("a `Retry-After` header in seconds"); whether a target sent seconds is judged elsewhere
 * (rate-limits.suite.ts). Here it is only obeyed, within bounds: a value that is neither form is ignored.
 */

/** The longest value read: an IMF-fixdate is 29 characters. */
const maxChars = 64;

/** Milliseconds to wait from `now`, or undefined when the value is absent or neither form. */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.length > maxChars) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names a day of the week and GMT; anything else Date.parse would guess at is ignored.
  if (!/^[A-Z][a-z]{2,8},? .*\d{2}:\d{2}:\d{2}.*GMT$|^[A-Z][a-z]{2} [A-Z][a-z]{2} +\d{1,2} [\d:]{8} \d{4}$/.test(text))
    return undefined;
  const at = Date.parse(/GMT$/.test(text) ? text : `${text} GMT`);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
