/**
 * Evidence as a shell command (report issue: "the redacted curl of every request"). Bearer tokens
 * and control tokens are replaced by placeholders that name the environment variable to use.
 */
import type { RecordedRequest } from './exchange.ts';

export interface Secrets {
  /** Literal secret → the placeholder that replaces it, e.g. `$TRYON_API_KEY`. */
  readonly [secret: string]: string;
}

/** Replaces every secret in `text` by its placeholder. */
export function redact(text: string, secrets: Secrets): string {
  let out = text;
  for (const [secret, placeholder] of Object.entries(secrets)) {
    if (secret.length >= 6) out = out.split(secret).join(placeholder);
  }
  return out;
}

/** A curl command that repeats the request, with secrets redacted. */
export function toCurl(request: RecordedRequest, secrets: Secrets = {}): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-length') continue;
    parts.push('-H', quote(`${name}: ${value}`));
  }
  if (request.multipart) parts.push('-F', quote(`${request.multipart.field}=@${request.multipart.filename};type=${request.multipart.contentType}`));
  else if (request.body !== undefined) parts.push('--data-binary', quote(request.body));
  parts.push(quote(request.url));
  return redact(parts.join(' '), secrets);
}

function quote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
