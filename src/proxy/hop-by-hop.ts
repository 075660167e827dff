/**
 * The hop-by-hop headers of HTTP/1.1 (RFC 9110 7.6.1): they describe one connection, not the
 * message, so a proxy does not pass them on. Every other header passes unchanged.
 */
import type { IncomingHttpHeaders } from 'node:http';

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
]);

type Headers = Record<string, string | string[] | number | undefined>;

/** `headers` without the hop-by-hop ones and those the Connection header names. A new object. */
export function endToEnd<H extends Headers | IncomingHttpHeaders>(headers: H): H {
  const named = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const out: Headers = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || hopByHop.has(lower) || named.includes(lower)) continue;
    out[name] = value;
  }
  return out as H;
}
