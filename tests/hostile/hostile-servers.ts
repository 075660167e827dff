/**
 * Hostile targets: small loopback HTTP servers that misbehave on every request, so that a run of the
 * conformance suite against them shows the suite ends (with failures) instead of hanging or
 * crashing. Each one binds 127.0.0.1 on an ephemeral port and destroys every socket on close.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface HostileServer {
  readonly name: string;
  /** What it does to every request. */
  readonly does: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Requests it has seen. */
  readonly requests: () => number;
  close(): Promise<void>;
}

type Behaviour = (req: IncomingMessage, res: ServerResponse, gone: AbortSignal) => void | Promise<void>;

export interface HostileKind {
  readonly name: string;
  readonly does: string;
  readonly behaviour: Behaviour;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** Writes `chunk` honouring back-pressure; false when the client has gone. */
async function write(res: ServerResponse, chunk: Buffer | string, gone: AbortSignal): Promise<boolean> {
  if (gone.aborted || res.destroyed) return false;
  if (res.write(chunk)) return true;
  await new Promise<void>((resolve) => {
    const done = () => (res.off('drain', done), gone.removeEventListener('abort', done), resolve());
    res.once('drain', done);
    gone.addEventListener('abort', done, { once: true });
  });
  return !gone.aborted && !res.destroyed;
}

/** A body that looks like the start of what each operation would answer. */
function plausibleBody(req: IncomingMessage): Record<string, unknown> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path.endsWith('/account')) return { credits: 20 };
  if (path.endsWith('/images'))
    return { id: 'img_hostile0001', expiresAt: new Date(Date.now() + 86_400_000).toISOString() };
  if (req.method === 'POST' && /\/tryons(\/sync)?$/.test(path))
    return { id: 'ton_hostile0001', status: 'pending', pollUrl: '/api/v1/tryons/ton_hostile0001' };
  if (/\/tryons\/[^/]+$/.test(path))
    return {
      id: decodeURIComponent(path.split('/').pop() ?? ''),
      status: 'success',
      resultUrl: 'http://127.0.0.1/i/hostile.png',
    };
  return { error: 'No endpoint at this path.', code: 'NOT_FOUND' };
}

export const hostileKinds: readonly HostileKind[] = [
  {
    name: 'garbage-json',
    does: '200 application/json whose body is JSON cut short: {"id":',
    behaviour: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id":');
    },
  },
  {
    name: 'fifty-mb-body',
    does: '200 application/json with a 50 MB body (Content-Length set), sent as fast as the client reads',
    behaviour: async (_req, res, gone) => {
      const total = 50 * 1024 * 1024;
      const head = '{"id":"';
      const tail = '"}';
      const filler = Buffer.alloc(1024 * 1024, 'a');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(total) });
      if (!(await write(res, head, gone))) return;
      let left = total - head.length - tail.length;
      while (left > 0) {
        const chunk = left >= filler.length ? filler : filler.subarray(0, left);
        if (!(await write(res, chunk, gone))) return;
        left -= chunk.length;
      }
      res.end(tail);
    },
  },
  {
    name: 'never-ending',
    does: '200 application/json, the first bytes of a body, then nothing more: the response never ends',
    behaviour: async (req, res, gone) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await write(res, JSON.stringify(plausibleBody(req)).slice(0, 12), gone);
      await new Promise<void>((resolve) => gone.addEventListener('abort', () => resolve(), { once: true }));
    },
  },
  {
    name: 'drip',
    does: '200 application/json, one byte a second, of a body that never ends',
    behaviour: async (req, res, gone) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const text = `${JSON.stringify(plausibleBody(req)).slice(0, -1)},"padding":"`;
      for (let i = 0; !gone.aborted; i++) {
        if (!(await write(res, i < text.length ? text[i]! : 'x', gone))) return;
        await sleep(1_000, gone);
      }
    },
  },
  {
    name: 'closed-connection',
    does: 'destroys the socket as soon as a request arrives, without a byte of answer',
    behaviour: (req) => {
      req.socket.destroy();
    },
  },
  {
    name: 'wrong-content-type',
    does: 'answers every request 200 with a plausible JSON body for the operation, labelled text/html',
    behaviour: (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(JSON.stringify(plausibleBody(req)));
    },
  },
];

export interface HostileOptions {
  /**
   * Answer GET /api/v1/account properly (`{"credits": 2}`), so that the suite gets past connecting
   * (it reads the balance before spending anything) and every other request meets the misbehaviour.
   */
  readonly spareAccount?: boolean;
}

/** Starts one hostile server on 127.0.0.1. */
export async function startHostile(kind: HostileKind, options: HostileOptions = {}): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    if (options.spareAccount && req.method === 'GET' && (req.url ?? '').split('?')[0] === '/api/v1/account') {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ credits: 2 }));
      return;
    }
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    // The body is never read past what the socket buffers; drain it so the client can finish sending.
    req.resume();
    Promise.resolve(kind.behaviour(req, res, gone.signal)).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A slow client must not be cut by the server's own timeouts: the client's bounds are what is tested.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('hostile server did not listen');
  return {
    name: kind.name,
    does: kind.does,
    origin: `http://127.0.0.1:${address.port}`,
    requests: () => requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
