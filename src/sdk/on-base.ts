/**
 * The only URLs the client sends its key to: under `baseUrl`, on its origin (scheme, host and
 * port). A `pollUrl` is the server's choice, so it is checked before use (spec, Response fields:
 * pollUrl is a "Path relative to {host}, equal to `/api/v1/tryons/<id>`", and Versioning:
 * "`pollUrl` values carry the same prefix" as {base_url}).
 */
import { TryOnBadResponseError } from './errors.ts';
import { redactValue } from './redact.ts';

/** The URL of `path` (a path under the base, `/tryons`); throws when it would leave the base's origin. */
export function urlOnBase(baseUrl: string, path: string): string {
  const url = `${baseUrl}${path}`;
  if (!path.startsWith('/') || new URL(url).origin !== new URL(baseUrl).origin) {
    throw new RangeError('the client sends requests only to paths under its baseUrl');
  }
  return url;
}

/**
 * The path under `baseUrl` that `pollUrl` names (`/tryons/<id>`), or a TryOnBadResponseError
 * carrying the value redacted: an absolute URL on another origin, a scheme-relative `//host/…`, a
 * change of scheme or port, credentials, or a path outside the base's prefix.
 */
export function pollPathOf(baseUrl: string, pollUrl: string, apiKey: string, status: number, what: string): string {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = URL.canParse(pollUrl, base.href) ? new URL(pollUrl, base) : undefined;
  const onOrigin = url?.origin === base.origin && url.username === '' && url.password === '';
  if (url && onOrigin && url.pathname.startsWith(`${prefix}/`)) {
    return `${url.pathname.slice(prefix.length)}${url.search}`;
  }
  const shown = redactValue(pollUrl, apiKey);
  const reason = onOrigin ? `not under ${prefix}/` : `not a path on ${base.origin}`;
  const message = `${what}: pollUrl ${JSON.stringify(shown)} is ${reason}; the key goes only to baseUrl's origin`;
  throw new TryOnBadResponseError(status, message, shown);
}
