/**
 * A hostile upstream for the proxy's fuzz run, on loopback. The request's path says how it answers
 * (`/<mode>/…`): well (a body with Content-Length, or chunked), slowly (a drip), or badly (garbage
 * for a status line, a status out of range, a reset before or during the body, a Content-Length
 * that lies either way, chunks without end, headers past any bound). It records the sha256 of
 * every request body it received whole, by the request's `x-fuzz-id`.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const upstreamModes = [
  'ok',
  'ok',
  'ok',
  'chunked',
  'drip',
  'garbage',
  'bad-status',
  'reset-before',
  'reset-mid',
  'lying-short',
  'lying-long',
  'endless',
  'huge-headers',
] as const;
export type UpstreamMode = (typeof upstreamModes)[number];

/** The body a well-behaved mode answers request `id` with: deterministic, so the client knows its digest. */
export function answerBody(id: number): Buffer {
  const size = (id * 7_919) % 70_000;
  const seed = createHash('sha256').update(`answer:${id}`).digest();
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (seed[i % 32] as number) ^ (i & 0xff);
  return out;
}

/** The first `n` bytes of the answer body of `id`, padded with zeros when it is shorter. */
function firstBytes(id: number, n: number): Buffer {
  const body = answerBody(id);
  return body.length >= n ? body.subarray(0, n) : Buffer.concat([body, Buffer.alloc(n - body.length)]);
}

/** The bytes of the answer the client should receive whole for `mode`, or undefined when none may complete. */
export function expectedAnswer(mode: UpstreamMode, id: number): Buffer | undefined {
  if (mode === 'ok' || mode === 'chunked') return answerBody(id);
  if (mode === 'drip') return firstBytes(id, 64);
  if (mode === 'lying-long') return firstBytes(id, 10);
  return undefined;
}

export interface HostileUpstream {
  readonly origin: string;
  /** sha256 of each request body received whole, by x-fuzz-id. */
  readonly received: Map<number, string>;
  close(): Promise<void>;
}

/** Starts the hostile upstream. */
export async function startHostileUpstream(): Promise<HostileUpstream> {
  const received = new Map<number, string>();
  const server: Server = createServer({ maxHeaderSize: 64 * 1024 }, (request, response) => {
    const id = Number(request.headers['x-fuzz-id']);
    const mode = (request.url ?? '/').split('/')[1] as UpstreamMode;
    const hash = createHash('sha256');
    request.on('data', (chunk: Buffer) => hash.update(chunk));
    request.on('error', () => {});
    request.on('end', () => {
      if (Number.isInteger(id)) received.set(id, hash.digest('hex'));
      answer(mode, id, request.socket, response);
    });
  });
  server.keepAliveTimeout = 2_000;
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(mode: UpstreamMode, id: number, socket: Socket, response: import('node:http').ServerResponse): void {
  const body = answerBody(id);
  const raw = (text: string | Buffer) => {
    if (!socket.destroyed) socket.write(text);
  };
  const tag = 'x-fuzz-upstream: 1\r\n';
  switch (mode) {
    case 'chunked':
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'x-fuzz-upstream': '1' });
      for (let at = 0; at < body.length; at += 8_192) response.write(body.subarray(at, at + 8_192));
      return void response.end();
    case 'drip': {
      response.writeHead(200, { 'content-length': '64', 'x-fuzz-upstream': '1' });
      const drip = firstBytes(id, 64);
      let at = 0;
      const timer = setInterval(() => {
        response.write(drip.subarray(at, at + 8));
        at += 8;
        if (at >= 64) {
          clearInterval(timer);
          response.end();
        }
      }, 15);
      return void response.once('close', () => clearInterval(timer));
    }
    case 'garbage':
      raw('HELLO THERE\r\n\r\n');
      return void socket.end();
    case 'bad-status':
      raw(`HTTP/1.1 ${id % 2 === 0 ? '99' : '1000'} Odd\r\ncontent-length: 0\r\n\r\n`);
      return void socket.end();
    case 'reset-before':
      return void socket.resetAndDestroy();
    case 'reset-mid':
      raw(`HTTP/1.1 200 OK\r\n${tag}content-length: ${body.length + 100}\r\n\r\n`);
      raw(body.subarray(0, Math.floor(body.length / 2)));
      return void setTimeout(() => socket.resetAndDestroy(), 5);
    case 'lying-short':
      raw(`HTTP/1.1 200 OK\r\n${tag}content-length: ${body.length + 1_000}\r\n\r\n`);
      raw(body);
      return void socket.end();
    case 'lying-long':
      raw(`HTTP/1.1 200 OK\r\n${tag}content-length: 10\r\n\r\n`);
      raw(Buffer.concat([firstBytes(id, 10), body]));
      return void socket.end();
    case 'endless': {
      raw(`HTTP/1.1 200 OK\r\n${tag}transfer-encoding: chunked\r\n\r\n`);
      const chunk = Buffer.alloc(1_024, 0x61);
      const timer = setInterval(() => raw(Buffer.concat([Buffer.from('400\r\n'), chunk, Buffer.from('\r\n')])), 5);
      return void socket.once('close', () => clearInterval(timer));
    }
    case 'huge-headers':
      raw(`HTTP/1.1 200 OK\r\nx-big: ${'h'.repeat(100_000)}\r\ncontent-length: 0\r\n\r\n`);
      return void socket.end();
    default:
      response.writeHead(200, { 'content-length': String(body.length), 'x-fuzz-upstream': '1' });
      response.end(body);
  }
}
