/**
 * Redaction for the client grade: an API key never reaches a grade, wherever the client put it. The
 * key of a request's Authorization header is removed from everything recorded of that request (path,
 * Idempotency-Key, header values), raw or percent-encoded, and anything shaped like a key of this
 * API (`<prefix>_live_…`, api-keys.ts) is removed from every string of a grade before any format
 * writes it. A body is never kept, only its digest.
 */
import { createHash } from 'node:crypto';

/** What stands where a key was. */
export const redactedMark = '[key redacted]';

/**
 * The shape of a key of this API, whole or cut short: a lowercase prefix, `_live_` and letters or
 * digits. Only from the start of the prefix (the look-behind), so a long run of letters costs one pass.
 */
const keyShape = /(?<![a-z])[a-z]*_live_[A-Za-z0-9]+/g;

/** A secret shorter than this is not looked for inside other text (it would match by chance, and guards nothing). */
const shortestSecret = 8;

/**
 * The secrets of an Authorization header: every word of it but the scheme (`Bearer`, `Basic`, …)
 * that is long enough to be a key. A request without the header has none.
 */
export function secretsOf(authorization: string | string[] | undefined): string[] {
  // Traffic repeats one Authorization value request after request: its words are read once.
  if (typeof authorization === 'string' && lastSecrets?.authorization === authorization)
    return [...lastSecrets.secrets];
  const secrets = secretsOfValues(authorization);
  if (typeof authorization === 'string') lastSecrets = { authorization, secrets: [...secrets] };
  return secrets;
}

/** The Authorization value read last and its secrets. */
let lastSecrets: { readonly authorization: string; readonly secrets: readonly string[] } | undefined;

function secretsOfValues(authorization: string | string[] | undefined): string[] {
  const values = Array.isArray(authorization) ? authorization : authorization === undefined ? [] : [authorization];
  const words = values.flatMap((v) => v.split(/\s+/)).filter((w) => w.length >= shortestSecret);
  // Longest first, so a secret that contains another is removed whole.
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/** The secret percent-encoded last: a request's one secret is looked for in each of its texts. */
let lastEncoded = { secret: '', encoded: '' };

function encodedOf(secret: string): string {
  if (lastEncoded.secret !== secret) lastEncoded = { secret, encoded: encodeURIComponent(secret) };
  return lastEncoded.encoded;
}

/** `text` with each secret (raw or percent-encoded) and all shaped like an API key replaced by `redactedMark`. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(redactedMark);
    const encoded = encodedOf(secret);
    if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(redactedMark);
  }
  return out.replace(keyShape, redactedMark);
}

/**
 * A request path with its secrets redacted. A path that hides a secret in percent-encoding (each
 * character of a key can be spelled `%xx`) is kept in its decoded form, redacted.
 */
export function redactPath(raw: string, secrets: readonly string[]): string {
  const clean = redact(raw, secrets);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return clean;
  }
  if (decoded === raw) return clean;
  const cleanDecoded = redact(decoded, secrets);
  return cleanDecoded === decoded ? clean : cleanDecoded;
}

/** `text` cut to `max` characters; a longer one ends with its length and a digest, so two long texts stay apart. */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 8);
  return `${text.slice(0, max)}… (${text.length} characters, sha256:${digest})`;
}

/** The grade with everything shaped like an API key redacted in every string: what every format writes. */
export function redactGrade<Grade>(grade: Grade): Grade {
  return redactStrings(grade) as Grade;
}

function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(redactStrings);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)]));
}
