/**
 * The typed client against hostile servers on loopback: a pollUrl or a redirect that points
 * elsewhere gets no request (so never the key), a huge body is given up near the client's bound and
 * not fetched again, a dripping answer ends at the attempt's deadline, and no error shows the key.
 * Retry waits go through an injected clock; only the deadline tests wait real time (about 1.5 s).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { generate } from 'selfsigned';
import { Agent, interceptors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { TryOnClient, type ClientClock, type TryOnClientOptions, type TryOnInput } from '../../src/sdk/index.ts';

const apiKey = 'vto_live_H0stileTestKey_5f3a9c1e7b2d4a6f8e0c';
const tryOnInput: TryOnInput = {
  personImageUrl: 'https://img.test/p.jpg',
  garmentImageUrl: 'https://img.test/g.jpg',
  consent: true,
};
const oneMiB = 1024 * 1024;

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
}

interface Loopback {
  readonly origin: string;
  readonly port: number;
  readonly seen: Seen[];
  /** TCP connections accepted, and how many are still open. */
  readonly connections: { accepted: number; open: number };
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
const open: Loopback[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** Starts `server` on an ephemeral loopback port and records what reaches it. */
async function listen(server: TcpServer, scheme: 'http' | 'https', seen: Seen[]): Promise<Loopback> {
  const connections = { accepted: 0, open: 0 };
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.accepted += 1;
    connections.open += 1;
    sockets.add(socket);
    socket.on('close', () => void ((connections.open -= 1), sockets.delete(socket)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const loopback: Loopback = {
    origin: `${scheme}://127.0.0.1:${port}`,
    port,
    seen,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  open.push(loopback);
  return loopback;
}

const recorder = (seen: Seen[], handler: Handler) => (req: IncomingMessage, res: ServerResponse) => {
  seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
  void handler(req, res);
};

async function httpServer(handler: Handler = notFound): Promise<Loopback> {
  const seen: Seen[] = [];
  return listen(createHttpServer(recorder(seen, handler)), 'http', seen);
}

function notFound(_req: IncomingMessage, res: ServerResponse): void {
  json(res, 404, { error: 'no such route', code: 'NOT_FOUND' });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A clock whose sleeps are recorded and pass at once. */
function fakeClock(): ClientClock & { readonly sleeps: number[] } {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    async sleep(ms, signal) {
      sleeps.push(ms);
      now += ms;
      await new Promise((r) => setImmediate(r));
      if (signal?.aborted) throw signal.reason;
    },
  };
}

const clientOf = (api: Loopback, extra: Partial<TryOnClientOptions> = {}) =>
  new TryOnClient({ baseUrl: `${api.origin}/api/v1`, apiKey, clock: fakeClock(), ...extra });

/** The error `promise` rejects with, after checking that no view of it shows the key. */
async function failure(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = await promise.then(
    () => expect.fail('the call succeeded'),
    (e: unknown) => e,
  );
  expectKeyless(error);
  return error as Record<string, unknown>;
}

function expectKeyless(error: unknown): void {
  const e = error as Error;
  for (const view of [e.message, String(e), JSON.stringify(e), e.stack ?? '', inspect(e, { depth: 8 })]) {
    expect(view).not.toContain(apiKey);
    expect(view).not.toContain(apiKey.slice(9));
  }
}

const pending = (pollUrl: string) => ({ id: 'tr_hostile1', status: 'pending', pollUrl });

describe('a pollUrl off the API origin gets no request', () => {
  it.each([
    ['an absolute URL on another origin', (other: Loopback) => `${other.origin}/api/v1/tryons/tr_hostile1`],
    ['a scheme-relative URL', (other: Loopback) => `//127.0.0.1:${other.port}/api/v1/tryons/tr_hostile1`],
    ['a backslash path, read as //host', (other: Loopback) => `/\\127.0.0.1:${other.port}/api/v1/tryons/x`],
    ['a tab that the URL parser drops', (other: Loopback) => `/\t/127.0.0.1:${other.port}/api/v1/tryons/x`],
  ])('sync 202 with %s: CLIENT_BAD_RESPONSE at once, not retried, nothing sent there', async (_name, pollUrlOf) => {
    const other = await httpServer();
    const pollUrl = pollUrlOf(other);
    const api = await httpServer((_req, res) => json(res, 202, pending(pollUrl)));
    const clock = fakeClock();
    const error = await failure(clientOf(api, { clock }).tryOn(tryOnInput));
    expect(error).toMatchObject({ name: 'TryOnBadResponseError', code: 'CLIENT_BAD_RESPONSE', status: 202 });
    expect(error.value).toBe(pollUrl.replace(/\t/g, ''));
    expect(other.seen).toEqual([]);
    expect(other.connections.accepted).toBe(0);
    expect(api.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('a create answer with a foreign pollUrl: waitForTryOn refuses it before waiting', async () => {
    const other = await httpServer();
    const pollUrl = `${other.origin}/api/v1/tryons/tr_hostile1`;
    const api = await httpServer((_req, res) => json(res, 200, pending(pollUrl)));
    const clock = fakeClock();
    const client = clientOf(api, { clock });
    const started = await client.startTryOn(tryOnInput);
    const error = await failure(client.waitForTryOn(started.id, {}, started.pollUrl));
    expect(error).toMatchObject({ code: 'CLIENT_BAD_RESPONSE', value: pollUrl });
    expect(clock.sleeps).toEqual([]);
    expect(other.seen).toEqual([]);
  });

  it('an https API whose pollUrl downgrades to http gets no plaintext request', async () => {
    const pems = await generate([{ name: 'commonName', value: 'hostile api' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const plain = await httpServer();
    const seen: Seen[] = [];
    let pollUrls: string[] = [];
    const answer: Handler = (_req, res) => json(res, 202, pending(pollUrls.shift() ?? ''));
    const server = createHttpsServer({ key: pems.private, cert: pems.cert }, recorder(seen, answer));
    const handshakes = { done: 0, failed: 0 };
    server.on('secureConnection', () => void (handshakes.done += 1));
    server.on('tlsClientError', () => void (handshakes.failed += 1));
    const api = await listen(server, 'https', seen);
    // The same host and port with http, and an http server elsewhere.
    pollUrls = [`http://127.0.0.1:${api.port}/api/v1/tryons/tr_hostile1`, `${plain.origin}/api/v1/tryons/tr_hostile1`];
    const client = clientOf(api, { dispatcher: new Agent({ connect: { ca: pems.cert } }) });
    for (const pollUrl of [...pollUrls]) {
      const error = await failure(client.tryOn(tryOnInput));
      expect(error).toMatchObject({ code: 'CLIENT_BAD_RESPONSE', value: pollUrl });
    }
    expect(seen.map((s) => `${s.method} ${s.url} ${s.authorization === `Bearer ${apiKey}`}`)).toEqual([
      'POST /api/v1/tryons/sync true',
      'POST /api/v1/tryons/sync true',
    ]);
    // Every connection to the https port was TLS: no plaintext request reached it.
    expect(handshakes).toEqual({ done: api.connections.accepted, failed: 0 });
    expect(plain.connections.accepted).toBe(0);
  });

  it('getTryOn with a pollUrl that leaves the origin or the /api/v1 prefix sends nothing', async () => {
    const other = await httpServer();
    const api = await httpServer((req, res) => json(res, 200, { id: 'tr_x', status: 'pending', url: req.url }));
    const client = clientOf(api);
    const host = new URL(api.origin).host;
    const hostile = [
      `http://user:pw@${host}/api/v1/tryons/x`,
      `http://${host.replace('127.0.0.1', '127.0.0.2')}/api/v1/tryons/x`,
      `http://127.0.0.1:${other.port}/api/v1/tryons/x`,
      `http://[::1]:${other.port}/api/v1/tryons/x`,
      '/api/v1/../../admin',
      '/api/v1/%2e%2e/%2E%2E/admin',
      '/api/v2/tryons/x',
      '/api/v1tryons/x',
      'javascript:alert(1)',
      'data:application/json,{}',
      'file:///etc/passwd',
      'http://',
    ];
    for (const pollUrl of hostile) {
      const error = await failure(client.getTryOn('tr_x', {}, pollUrl));
      expect(error, pollUrl).toMatchObject({ code: 'CLIENT_BAD_RESPONSE' });
    }
    expect(api.seen).toEqual([]);
    expect(other.seen).toEqual([]);
    // The spec's own shape still works, and keeps its query.
    const read = (pollUrl: string) => client.getTryOn('tr_x', {}, pollUrl);
    expect(await read('/api/v1/tryons/tr_x?a=1')).toMatchObject({ url: '/api/v1/tryons/tr_x?a=1' });
    expect(await read(`${api.origin}/api/v1/tryons/tr_x`)).toMatchObject({ url: '/api/v1/tryons/tr_x' });
    expect(api.seen.map((s) => s.authorization)).toEqual([`Bearer ${apiKey}`, `Bearer ${apiKey}`]);
  });

  it('shows a hostile pollUrl redacted: no key, no control characters, truncated', async () => {
    const pollUrl = `https://evil.test/\u001b]0;owned\u0007${apiKey}/Bearer%20${apiKey}\u202e/${'a'.repeat(5_000)}`;
    const api = await httpServer((_req, res) => json(res, 202, pending(pollUrl)));
    const error = await failure(clientOf(api).tryOn(tryOnInput));
    const value = String(error.value);
    expect(value.startsWith('https://evil.test/]0;owned[redacted]/Bearer%20[redacted]/aaa')).toBe(true);
    expect(value.length).toBeLessThanOrEqual(201);
    expect(`${value} ${String(error.message)}`).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
  });
});

describe('redirects are not followed', () => {
  const dispatchers = {
    "undici's default": undefined,
    'a dispatcher with a redirect interceptor': new Agent().compose(interceptors.redirect({ maxRedirections: 3 })),
  };
  it.each([301, 302, 307, 308].flatMap((status) => Object.keys(dispatchers).map((name) => [status, name] as const)))(
    '%i to another origin with %s: CLIENT_BAD_RESPONSE, no request there, not retried',
    async (status, name) => {
      const other = await httpServer((_req, res) => json(res, 200, { credits: 7 }));
      const location = `${other.origin}/api/v1/account`;
      const api = await httpServer((_req, res) => json(res, status, { error: 'moved', code: 'MOVED' }, { location }));
      const dispatcher = dispatchers[name as keyof typeof dispatchers];
      const error = await failure(clientOf(api, dispatcher ? { dispatcher } : {}).getAccount());
      expect(error).toMatchObject({ name: 'TryOnBadResponseError', code: 'CLIENT_BAD_RESPONSE', status });
      expect(error.value).toBe(location);
      expect(other.seen).toEqual([]);
      expect(api.seen).toHaveLength(1);
    },
  );
});

/** Resolves when `res` can take more, or has closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Streams `{"pad":"   …` in 64 KiB chunks, honouring backpressure, until `limit` or the client hangs up. */
function flood(limit: number, sent: { bytes: number }, headers: Record<string, number> = {}, status = 200): Handler {
  return async (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.write('{"pad":"');
    while (sent.bytes < limit && !res.destroyed) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) await drained(res);
    }
    res.end('"}');
  };
}

describe('bounded answers', () => {
  it.each([200, 503])('gives up a streamed body over 1 MiB (HTTP %i) near the bound, unretried', async (status) => {
    const sent = { bytes: 0 };
    const api = await httpServer(flood(128 * oneMiB, sent, {}, status));
    const error = await failure(clientOf(api).getAccount());
    expect(error).toMatchObject({ name: 'TryOnBadResponseError', code: 'CLIENT_BAD_RESPONSE', status });
    expect(String(error.message)).toContain(`${oneMiB} bytes`);
    expect(api.seen).toHaveLength(1);
    // The bound, plus what the sockets' buffers took before the client hung up.
    expect(sent.bytes).toBeLessThan(16 * oneMiB);
  });

  it('refuses a declared Content-Length of 700 MiB before reading it', async () => {
    const sent = { bytes: 0 };
    const api = await httpServer(flood(128 * oneMiB, sent, { 'content-length': 700 * oneMiB }));
    const error = await failure(clientOf(api).getAccount());
    expect(error).toMatchObject({ code: 'CLIENT_BAD_RESPONSE', status: 200 });
    expect(String(error.message)).toContain(`${700 * oneMiB} bytes`);
    expect(api.seen).toHaveLength(1);
    expect(sent.bytes).toBeLessThan(16 * oneMiB);
  });

  it('still reads an answer just under the bound', async () => {
    const pad = ' '.repeat(oneMiB - 64);
    const api = await httpServer((_req, res) => json(res, 200, { credits: 3, pad }));
    expect(await clientOf(api).getAccount()).toMatchObject({ credits: 3 });
  });
});

/** Resolves with `promise`'s outcome, or 'hung' after `ms`. */
const within = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(
      () => 'resolved',
      (e: unknown) => e,
    ),
    new Promise((r) => setTimeout(() => r('hung'), ms).unref()),
  ]);

describe('one deadline per attempt', () => {
  const timeoutMs = 1_500;

  it('ends a body that drips a byte every 300 ms at the deadline, retried as a timeout', async () => {
    const api = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const drip = setInterval(() => res.write(' '), 300);
      res.on('close', () => clearInterval(drip));
    });
    const client = clientOf(api, { requestTimeoutMs: timeoutMs, maxRetries: 1 });
    const outcome = await within(client.getAccount(), 4 * timeoutMs + 4_000);
    expect(outcome).toMatchObject({ name: 'TryOnNetworkError', code: 'CLIENT_TIMEOUT', attempts: 2 });
    expectKeyless(outcome);
    expect(api.seen).toHaveLength(2);
    // The client hung up both dripping connections.
    await expect.poll(() => api.connections.open, { timeout: 2_000 }).toBe(0);
  });

  it('ends headers that drip a byte every 300 ms at the deadline', async () => {
    const seen: Seen[] = [];
    const tcp = createTcpServer((socket) => {
      seen.push({ method: 'tcp', url: '', authorization: undefined });
      socket.on('error', () => {});
      socket.write('HTTP/1.1 200 OK\r\nx-slow: ');
      const drip = setInterval(() => socket.write('a'), 300);
      socket.on('close', () => clearInterval(drip));
    });
    const api = await listen(tcp, 'http', seen);
    const client = clientOf(api, { requestTimeoutMs: timeoutMs, maxRetries: 0 });
    const outcome = await within(client.getAccount(), 2 * timeoutMs + 4_000);
    expect(outcome).toMatchObject({ name: 'TryOnNetworkError', code: 'CLIENT_TIMEOUT', attempts: 1 });
    expectKeyless(outcome);
  });
});

describe('the key in errors', () => {
  it('an envelope that echoes the key and terminal escapes shows neither', async () => {
    const api = await httpServer((req, res) => {
      const echoed = `${req.headers.authorization} \u001b[2J\u001b]8;;https://evil.test\u0007x`;
      json(res, 401, { error: echoed, code: `INVALID_API_KEY ${req.headers.authorization}` });
    });
    const error = await failure(clientOf(api).getAccount());
    expect(error).toMatchObject({ name: 'TryOnApiError', status: 401, attempts: 1 });
    expect(String(error.message)).not.toMatch(/[\u0000-\u001f]/);
    expect(String(error.message)).toContain('Bearer [redacted]');
  });

  it('a refused connection shows no key', async () => {
    const gone = await httpServer();
    await gone.close();
    const error = await failure(clientOf(gone, { maxRetries: 1 }).getAccount());
    expect(error).toMatchObject({ name: 'TryOnNetworkError', code: 'CLIENT_NETWORK', attempts: 2 });
  });
});
