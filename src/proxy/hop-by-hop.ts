/**
 * The hop-by-hop headers of HTTP/1.1 (RFC 9110 7.6.1): they describe one connection, not the
 * message, so a proxy does not pass them on. Every other header passes unchanged.
 */
import type { IncomingHttpHeaders } from 'node:http';

const hopByHopNames = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
] as const;

const hopByHop = new Set<string>(hopByHopNames);

type Headers = Record<string, string | string[] | number | undefined>;

/** The Connection value read last and the names it lists: nearly every message says `keep-alive` or `close`. */
let lastConnection = { value: '', named: new Set<string>() };

/** The header names a Connection value lists, lower-case. */
function connectionNames(value: string): ReadonlySet<string> {
  if (lastConnection.value !== value) {
    const named = value
      .toLowerCase()
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    lastConnection = { value, named: new Set(named) };
  }
  return lastConnection.named;
}

/** `headers` without the hop-by-hop ones and those the Connection header names. A new object. */
export function endToEnd<H extends Headers | IncomingHttpHeaders>(headers: H): H {
  const connection = headers.connection;
  const named = connection === undefined ? undefined : connectionNames(String(connection));
  const out: Headers = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (hopByHop.has(lower) || named?.has(lower) === true) continue;
    out[name] = value;
  }
  return out as H;
}

/**
 * Takes the hop-by-hop headers and those the Connection header names out of `headers` itself, whose
 * names are lower-case (a request's headers as Node and reply-from hand a copy of them over).
 */
export function dropHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const connection = headers.connection;
  if (connection !== undefined) for (const name of connectionNames(String(connection))) delete headers[name];
  for (const name of hopByHopNames) if (headers[name] !== undefined) delete headers[name];
  return headers;
}
