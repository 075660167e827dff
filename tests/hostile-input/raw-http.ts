/**
 * A raw-socket HTTP/1.1 client for hostile traffic: it writes exactly the bytes it is given (no
 * library would send a malformed request line) and reads back one answer, skipping 1xx interim
 * answers. It tells an answer apart from a connection closed without one.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  /** Undefined when the connection closed (or timed out) without a complete answer. */
  readonly status?: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The connection closed without a single byte of answer. */
  readonly dropped: boolean;
  /** No complete answer within the time limit. */
  readonly timedOut: boolean;
  readonly ms: number;
}

export interface RawOptions {
  readonly timeoutMs?: number;
  /** The request is HEAD: its answer has no body. */
  readonly head?: boolean;
  /** Half-close after writing (default true), so an incomplete request is the server's to answer. */
  readonly end?: boolean;
}

/** Sends `bytes` on a new connection to `base` (http://host:port) and reads one answer. */
export function rawExchange(base: string, bytes: Buffer | string, options: RawOptions = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const socket = connect({ host: hostname, port: Number(port) });
  socket.on('connect', () => {
    socket.write(bytes);
    if (options.end !== false) socket.end();
  });
  return readAnswer(socket, options);
}

/** Reads one answer from an open socket (bytes may still be being written by the caller). */
export function readAnswer(socket: Socket, options: RawOptions = {}): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean, timedOut = false) => {
      if (settled) return;
      const data = Buffer.concat(chunks);
      const parsed = parseAnswer(data, options.head === true, closed);
      if (!parsed && !closed && !timedOut) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const ms = performance.now() - started;
      resolve(
        parsed
          ? { ...parsed, dropped: false, timedOut: false, ms }
          : { headers: {}, body: data, dropped: data.length === 0 && !timedOut, timedOut, ms },
      );
    };
    const timer = setTimeout(() => finish(false, true), options.timeoutMs ?? 10_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      finish(false);
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

type Parsed = { status: number; headers: Record<string, string>; body: Buffer };

/** One complete answer at the start of `data` (after 1xx answers), or undefined. */
export function parseAnswer(data: Buffer, head: boolean, closed: boolean): Parsed | undefined {
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) return undefined;
    const lines = data.toString('latin1', at, end).split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1]);
    if (!Number.isInteger(status)) return undefined;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    at = end + 4;
    if (status >= 100 && status < 200) continue;
    if (head || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const body = dechunk(data.subarray(at));
      return body ? { status, headers, body } : undefined;
    }
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      return data.length - at >= length ? { status, headers, body: data.subarray(at, at + length) } : undefined;
    }
    return closed ? { status, headers, body: data.subarray(at) } : undefined;
  }
}

function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = data.indexOf('\r\n', at);
    if (line < 0) return undefined;
    const size = parseInt(data.toString('latin1', at, line), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < line + 2 + size + 2) return undefined;
    parts.push(data.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}

/** True when the body is the API's error envelope: a JSON object with string `error` and `code`. */
export function isEnvelope(body: Buffer): { error: string; code: string } | undefined {
  try {
    const json = JSON.parse(body.toString('utf8')) as unknown;
    if (typeof json !== 'object' || json === null) return undefined;
    const { error, code } = json as Record<string, unknown>;
    return typeof error === 'string' && typeof code === 'string' ? { error, code } : undefined;
  } catch {
    return undefined;
  }
}
