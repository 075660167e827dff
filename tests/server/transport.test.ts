/**
 * The HTTP edge under the reads (src/server/routes/transport.ts; issue 15), over raw connections to
 * a real instance: a read without a body is answered at once and keeps its connection, a request
 * answered before its body has arrived closes its connection, and the caps on connections still
 * sending count a connection only until its request has arrived. The answers Node and fastify
 * would give themselves (no Host, a request during shutdown) are in the envelope, and the caps are
 * per client address: one client's slow connections leave another client's requests alone.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntilFinal, startHarness, urlBody, newKey, type Harness } from './harness.ts';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** One raw connection: writes what it is given and reads whole answers (Content-Length bodies) in order. */
class Connection {
  readonly #socket: Socket;
  #data = '';
  #waiting: (() => void) | undefined;
  closed = false;
  readonly ready: Promise<void>;

  /** `localAddress`: the client's own address (127.0.0.2 is another client on loopback). */
  constructor(base: string, localAddress?: string) {
    const { hostname, port } = new URL(base);
    this.#socket = connect({ host: hostname, port: Number(port), ...(localAddress && { localAddress }) });
    this.ready = new Promise((resolve) => this.#socket.once('connect', () => resolve()));
    this.#socket.on('data', (chunk: Buffer) => {
      this.#data += chunk.toString('latin1');
      this.#waiting?.();
    });
    this.#socket.on('error', () => {});
    this.#socket.on('close', () => {
      this.closed = true;
      this.#waiting?.();
    });
  }

  write(text: string): void {
    this.#socket.write(text);
  }

  /** Half-closes: nothing more will be sent, answers are still read. */
  end(): void {
    this.#socket.end();
  }

  /** The next whole answer, or undefined once the connection has closed without one. */
  async answer(timeoutMs = 5_000): Promise<Answer | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const taken = this.#take();
      if (taken || this.closed || Date.now() > deadline) return taken;
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
        setTimeout(resolve, 50);
      });
    }
  }

  /** Resolves once the server has closed the connection (false if it has not within `timeoutMs`). */
  async closedWithin(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return this.closed;
  }

  destroy(): void {
    this.#socket.destroy();
  }

  #take(): Answer | undefined {
    const end = this.#data.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const lines = this.#data.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.#data.length < end + 4 + length) return undefined;
    const body = this.#data.slice(end + 4, end + 4 + length);
    this.#data = this.#data.slice(end + 4 + length);
    return { status: Number(lines[0]?.split(' ')[1]), headers, body };
  }
}

const get = (path: string, key: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: tryon.test\r\nAuthorization: Bearer ${key}\r\n${extra}\r\n`;

describe('GET /tryons/{id} at the edge', () => {
  let h: Harness;
  let key: string;
  let path: string;
  let want: string;

  beforeAll(async () => {
    h = await startHarness();
    const account = await h.newAccount();
    key = account.apiKey;
    const start = await h.call('POST', '/api/v1/tryons', {
      key,
      json: urlBody(h),
      headers: { 'idempotency-key': newKey() },
    });
    expect(start.status, JSON.stringify(start.json)).toBe(200);
    path = `/api/v1/tryons/${String(start.json.id)}`;
    expect((await pollUntilFinal(h, key, String(start.json.id))).json.status).toBe('success');
    want = (await h.call('GET', path, { key })).body.toString();
  }, 60_000);
  afterAll(async () => h?.close());

  it('answers reads without a body at once, in order, on a connection it keeps open (also pipelined)', async () => {
    const c = new Connection(h.base);
    await c.ready;
    try {
      c.write(get(path, key));
      const first = await c.answer();
      c.write(get(path, key) + get(path, key, 'Content-Length: 0\r\n'));
      const rest = [await c.answer(), await c.answer()];
      for (const answer of [first, ...rest]) {
        expect(answer?.status).toBe(200);
        expect(answer?.body).toBe(want);
        expect(answer?.headers.connection).toBe('keep-alive');
        expect(answer?.headers['ratelimit-policy']).toMatch(/^"polls";q=\d+;w=60$/);
      }
      expect(c.closed).toBe(false);
    } finally {
      c.destroy();
    }
  });

  it.each([
    ['whose body has not all arrived', 'Content-Length: 10\r\n', 'abc'],
    ['whose body came with its headers', 'Content-Length: 3\r\n', 'abc'],
    ['whose chunked body has not ended', 'Transfer-Encoding: chunked\r\n', '3\r\nabc\r\n'],
  ])('answers a read %s, then closes the connection without reading the rest', async (_name, header, sent) => {
    const c = new Connection(h.base);
    await c.ready;
    try {
      c.write(get(path, key, header) + sent);
      const answer = await c.answer();
      expect(answer?.status).toBe(200);
      expect(answer?.body).toBe(want);
      expect(answer?.headers.connection).toBe('close');
      expect(await c.closedWithin(5_000)).toBe(true);
    } finally {
      c.destroy();
    }
  });

  it('refuses a bad key on a read without a body, keeping the connection; with a body pending, closing it', async () => {
    const c = new Connection(h.base);
    await c.ready;
    const d = new Connection(h.base);
    await d.ready;
    try {
      c.write(get(path, 'vto_live_nope'));
      const kept = await c.answer();
      expect([kept?.status, kept?.headers.connection]).toEqual([401, 'keep-alive']);
      d.write(get(path, 'vto_live_nope', 'Content-Length: 10\r\n') + 'abc');
      const closed = await d.answer();
      expect([closed?.status, closed?.headers.connection]).toEqual([401, 'close']);
      expect(await d.closedWithin(5_000)).toBe(true);
    } finally {
      c.destroy();
      d.destroy();
    }
  });
});

describe('caps on connections still sending their request', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ settings: { maxReceivingPerClient: 2 } });
  }, 60_000);
  afterAll(async () => h?.close());

  it('counts a connection until its request has arrived, not while it idles after its answer', async () => {
    const partial = 'GET /api/v1/account HTTP/1.1\r\nHost: tryon.test\r\n';
    const a = new Connection(h.base);
    const b = new Connection(h.base);
    const opened: Connection[] = [a, b];
    try {
      await Promise.all([a.ready, b.ready]);
      a.write(partial);
      b.write(partial);
      // Two connections are still sending: a third is refused at once, and only that answer comes.
      const refused = new Connection(h.base);
      opened.push(refused);
      await refused.ready;
      refused.write('GET /api/v1/account HTTP/1.1\r\nHost: tryon.test\r\n\r\n');
      const over = await refused.answer();
      expect(over?.status).toBe(503);
      expect(over?.headers['retry-after']).toBe('1');
      expect(JSON.parse(over?.body ?? '{}').code).toBe('UNAVAILABLE');
      expect(await refused.answer(500)).toBeUndefined();

      // `a` finishes its request and is answered; idle on its kept connection, it no longer counts.
      a.write('\r\n');
      const answered = await a.answer();
      expect([answered?.status, answered?.headers.connection]).toEqual([401, 'keep-alive']);
      const next = new Connection(h.base);
      opened.push(next);
      await next.ready;
      next.write('GET /api/v1/account HTTP/1.1\r\nHost: tryon.test\r\n\r\n');
      expect((await next.answer())?.status).toBe(401);
    } finally {
      for (const c of opened) c.destroy();
    }
  });
});

/** The envelope's code of an answer, or undefined when its body is not the envelope. */
function codeOf(answer: Answer | undefined): string | undefined {
  try {
    const json = JSON.parse(answer?.body ?? '') as { error?: unknown; code?: unknown };
    return typeof json.error === 'string' && typeof json.code === 'string' ? json.code : undefined;
  } catch {
    return undefined;
  }
}

describe('answers of the edge itself, in the envelope', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => h?.close());

  it.each([
    ['without a body', 'GET /api/v1/account HTTP/1.1\r\n\r\n'],
    ['whose body is still arriving', 'POST /api/v1/tryons HTTP/1.1\r\nContent-Length: 50\r\n\r\n{"consent":'],
  ])(
    'answers an HTTP/1.1 request with no Host header %s with 400 INVALID_REQUEST, then closes',
    async (_name, request) => {
      const c = new Connection(h.base);
      await c.ready;
      try {
        c.write(request);
        const answer = await c.answer();
        expect([answer?.status, codeOf(answer)]).toEqual([400, 'INVALID_REQUEST']);
        expect(answer?.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(answer?.headers.connection).toBe('close');
        expect(await c.closedWithin(5_000)).toBe(true);
      } finally {
        c.destroy();
      }
    },
  );

  it.each([
    ['a plain one', ''],
    ['one with an Upgrade header', 'Upgrade: websocket\r\nConnection: Upgrade\r\n'],
  ])('answers 400 INVALID_REQUEST to a request half-closed before its body arrived: %s', async (_name, upgrade) => {
    const { apiKey } = await h.newAccount();
    const c = new Connection(h.base);
    await c.ready;
    try {
      const head = `POST /api/v1/tryons HTTP/1.1\r\nHost: tryon.test\r\nAuthorization: Bearer ${apiKey}\r\n`;
      c.write(`${head}Idempotency-Key: ${newKey()}\r\n`);
      c.write(`${head}${upgrade}Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"consent":`);
      c.end();
      const answer = await c.answer();
      expect([answer?.status, codeOf(answer)]).toEqual([400, 'INVALID_REQUEST']);
    } finally {
      c.destroy();
    }
  });

  it('routes an HTTP/1.0 request without Host as any other (Host is required of HTTP/1.1 only)', async () => {
    const c = new Connection(h.base);
    await c.ready;
    try {
      c.write('GET /api/v1/account HTTP/1.0\r\n\r\n');
      const answer = await c.answer();
      expect([answer?.status, codeOf(answer)]).toEqual([401, 'INVALID_API_KEY']);
    } finally {
      c.destroy();
    }
  });
});

describe('a request that arrives while the server shuts down', () => {
  it('gets 503 UNAVAILABLE in the envelope with Retry-After', async () => {
    const h = await startHarness();
    const c = new Connection(h.base);
    try {
      await c.ready;
      // Half a request: the connection is not idle, so closing the server waits for it.
      c.write('GET /api/v1/account HTTP/1.1\r\nHost: tryon.test\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const closing = h.server.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      c.write('\r\n');
      const answer = await c.answer();
      expect([answer?.status, codeOf(answer), answer?.headers['retry-after']]).toEqual([503, 'UNAVAILABLE', '1']);
      await closing;
    } finally {
      c.destroy();
      await h.fixtures.close();
    }
  });
});

describe('caps per client address', () => {
  let h: Harness;
  const slowAfterMs = 300;

  beforeAll(async () => {
    h = await startHarness({ settings: { maxSlowPerClient: 2, slowAfterMs, deadlineCheckMs: 100 } });
  }, 60_000);
  afterAll(async () => h?.close());

  it('answers a burst of quick requests from one address in full, however many connections it opens at once', async () => {
    const burst = Array.from({ length: 40 }, () => new Connection(h.base));
    try {
      await Promise.all(burst.map((c) => c.ready));
      for (const c of burst) c.write('GET /api/v1/account HTTP/1.1\r\nHost: tryon.test\r\n\r\n');
      const answers = await Promise.all(burst.map((c) => c.answer()));
      expect(answers.map((a) => a?.status)).toEqual(burst.map(() => 401));
    } finally {
      for (const c of burst) c.destroy();
    }
  });

  it("refuses one address's slow connections over its cap, newest first, and lets another address in", async () => {
    const slow = Array.from({ length: 5 }, () => new Connection(h.base));
    const opened = [...slow];
    try {
      for (const c of slow) {
        await c.ready;
        c.write('GET /api/v1/account HTTP/1.1\r\nHost: tryon.test\r\n');
      }
      // Once they count as slow (and a check has run), the three newest are refused; the two oldest stay.
      await new Promise((resolve) => setTimeout(resolve, slowAfterMs + 700));
      const refused = await Promise.all(slow.slice(2).map((c) => c.answer(2_000)));
      for (const answer of refused) {
        expect([answer?.status, codeOf(answer), answer?.headers['retry-after']]).toEqual([503, 'UNAVAILABLE', '1']);
      }
      expect(slow.slice(0, 2).map((c) => c.closed)).toEqual([false, false]);

      // A new connection of the same address is refused at once; one from another address is answered.
      const same = new Connection(h.base);
      const other = new Connection(h.base, '127.0.0.2');
      opened.push(same, other);
      await Promise.all([same.ready, other.ready]);
      same.write('GET /api/v1/account HTTP/1.1\r\nHost: tryon.test\r\n\r\n');
      other.write('GET /api/v1/account HTTP/1.1\r\nHost: tryon.test\r\n\r\n');
      expect([(await same.answer())?.status, (await other.answer())?.status]).toEqual([503, 401]);

      // The two that stayed finish their requests and are answered.
      for (const c of slow.slice(0, 2)) c.write('\r\n');
      expect(await Promise.all(slow.slice(0, 2).map(async (c) => (await c.answer())?.status))).toEqual([401, 401]);
    } finally {
      for (const c of opened) c.destroy();
    }
  });
});
