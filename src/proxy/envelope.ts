/**
 * The proxy's own answers, in the API's `{error, code}` envelope. They never come from the upstream
 * and are never judged as its answers. Codes: UPSTREAM_FAILED (502: the upstream's answer could not
 * be read, or it could not be reached), UPSTREAM_TIMEOUT (504), PROXY_BUSY (503: over a connection
 * cap), INVALID_REQUEST (400), REQUEST_TIMEOUT (408), METHOD_NOT_ALLOWED (405: CONNECT),
 * UNAUTHORIZED (401: the report without its token), NOT_FOUND (404: an unknown /_proxy path).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

export const proxyErrors = {
  UPSTREAM_FAILED: 502,
  UPSTREAM_TIMEOUT: 504,
  PROXY_BUSY: 503,
  INVALID_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  METHOD_NOT_ALLOWED: 405,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
} as const;

export type ProxyErrorCode = keyof typeof proxyErrors;

/** The envelope's JSON text. */
export function envelope(code: ProxyErrorCode, message: string): string {
  return JSON.stringify({ error: message, code });
}

const answered = new WeakSet<Duplex>();

/** Writes one envelope answer straight to a socket (no request was routed) and closes it. */
export function answerSocket(
  socket: Duplex,
  code: ProxyErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (answered.has(socket) || socket.destroyed) return;
  answered.add(socket);
  const status = proxyErrors[code];
  const body = envelope(code, message);
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const head =
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\ncontent-type: application/json; charset=utf-8\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n`;
  socket.on('error', () => socket.destroy());
  if (socket.writable) socket.end(head + body);
  // Whatever the client still sends is not read; the socket goes once the answer is out, or soon.
  const timer = setTimeout(() => socket.destroy(), 2_000);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
