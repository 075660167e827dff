/**
 * What an error may carry of a value the server chose: the API key replaced, control and format
 * characters (ESC, BEL, bidi overrides) removed so a log or a terminal shows it inert, and at most
 * `maxShownChars` characters.
 */

/** The longest part of a server's value an error shows. */
export const maxShownChars = 200;

const invisible = /[\p{Cc}\p{Cf}]/gu;

/** `value` with every form of `secret` replaced by `[redacted]`, control characters dropped, truncated. */
export function redactValue(value: string, secret: string): string {
  // Control characters go first, so that one inside the key cannot hide it from the replacement.
  let shown = value.replace(invisible, '');
  for (const form of new Set([secret, encodeURIComponent(secret)])) {
    if (form !== '') shown = shown.split(form).join('[redacted]');
  }
  return shown.length > maxShownChars ? `${shown.slice(0, maxShownChars)}…` : shown;
}
