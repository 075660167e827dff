/**
 * What of an exchange is a secret, and how it is kept out of the record: the bearer key of the
 * Authorization header is removed from everything recorded of that exchange (URL, header values,
 * body text and bytes), raw or percent-encoded, and the values of the credential headers are
 * replaced whole. The proxy forwards the secret unchanged to the upstream, its configured origin.
 */

/** What stands where a secret was. */
export const redactedMark = '[redacted]';

/** Headers whose whole value is a credential. */
const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** A word shorter than this is not looked for in other text (it would match by chance, and guards nothing). */
const shortestSecret = 8;

/** The secrets of a request's headers: the words of its credential headers long enough to be keys. */
export function secretsOfHeaders(headers: Readonly<Record<string, string>>): string[] {
  // Most requests carry one credential header at most: no work past a look at each name.
  let words: string[] | undefined;
  for (const name in headers) {
    if (!credentialHeaders.has(name)) continue;
    for (const word of (headers[name] as string).split(/[\s,;=]+/)) {
      if (word.length >= shortestSecret) (words ??= []).push(word);
    }
  }
  if (words === undefined) return [];
  return words.length === 1 ? words : [...new Set(words)].sort((a, b) => b.length - a.length);
}

/** The secret percent-encoded last: one exchange's secret is looked for in each of its texts. */
let lastEncoded = { secret: '', encoded: '' };

/** `secret` percent-encoded, as a URL or a form body would carry it. */
function encodedOf(secret: string): string {
  if (lastEncoded.secret !== secret) lastEncoded = { secret, encoded: encodeURIComponent(secret) };
  return lastEncoded.encoded;
}

/** The secret last looked for in bytes, as the bytes of its raw and percent-encoded forms (one when they agree). */
let lastNeedles: { readonly secret: string; readonly needles: readonly Buffer[] } = { secret: '', needles: [] };

/** A string needle is encoded anew at each search: one exchange's secret is looked for in each body as bytes. */
function needlesOf(secret: string): readonly Buffer[] {
  if (lastNeedles.secret !== secret) {
    const encoded = encodedOf(secret);
    const needles = encoded === secret ? [Buffer.from(secret)] : [Buffer.from(secret), Buffer.from(encoded)];
    lastNeedles = { secret, needles };
  }
  return lastNeedles.needles;
}

/** `text` with each secret, raw or percent-encoded, replaced by the mark. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Most texts hold no secret, and many are shorter than one: a look first, the copy only when there is one.
    if (out.length < secret.length) continue;
    if (out.includes(secret)) out = out.replaceAll(secret, redactedMark);
    const encoded = encodedOf(secret);
    if (encoded !== secret && out.includes(encoded)) out = out.replaceAll(encoded, redactedMark);
  }
  return out;
}

/** Headers with credential values replaced whole and any secret removed from the others. */
export function redactHeaders(
  headers: Readonly<Record<string, string>>,
  secrets: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  // A secret is at least `shortestSecret` long: a shorter value holds none.
  const shortest = secrets.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...secrets.map((s) => s.length));
  for (const name in headers) {
    const value = headers[name] as string;
    if (credentialHeaders.has(name)) out[name] = credentialValue(name, value);
    else out[name] = value.length < shortest ? value : redactText(value, secrets);
  }
  return out;
}

/** `Bearer <key>` keeps its scheme, so the record still says how the client authenticated. */
function credentialValue(name: string, value: string): string {
  const scheme = /^(Bearer|Basic)\s+/i.exec(value)?.[1];
  return name === 'authorization' && scheme !== undefined ? `${scheme} ${redactedMark}` : redactedMark;
}

/** Body bytes with every secret removed; the same Buffer when none is in it. */
export function redactBytes(bytes: Buffer, secrets: readonly string[]): Buffer {
  const found = secrets.some((s) => bytes.length >= s.length && needlesOf(s).some((needle) => bytes.includes(needle)));
  return found ? Buffer.from(redactText(bytes.toString('latin1'), secrets), 'latin1') : bytes;
}
