import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createSend } from './http-client.ts';
import { maxJsonBytes, maxJsonDepth } from '../shared/json-bounds.ts';
import { RunStopped } from './run-stop.ts';

let servers: Server[] = [];
afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  servers = [];
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}/api/v1`;
}

const answerJson = (text: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(text);
};

describe('createSend', () => {
  it('cuts a body larger than the bound and marks it truncated, without waiting for the rest', async () => {
    const base = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(Buffer.alloc(2 * 1024 * 1024, 0x20));
      // Never ends on its own.
    });
    const send = createSend({ baseUrl: base, maxBodyBytes: 1024 * 1024 });
    const ex = await send({ method: 'GET', path: '/account' });
    expect({ truncated: ex.response?.truncated, bytes: ex.response?.bytes.length, json: ex.response?.json }).toEqual({
      truncated: true,
      bytes: 1024 * 1024,
      json: undefined,
    });
  });

  it('gives up after the timeout, and fails at once after three transport failures in a row', async () => {
    let seen = 0;
    const base = await listen(() => {
      seen++; // never answers
    });
    const send = createSend({ baseUrl: base, timeoutMs: 200 });
    const started = performance.now();
    const errors = [];
    for (let i = 0; i < 6; i++) errors.push((await send({ method: 'GET', path: '/account' })).error ?? '');
    expect(errors.slice(0, 3).every((e) => e.startsWith('timeout'))).toBe(true);
    expect(errors.slice(3).every((e) => e.startsWith('circuit open'))).toBe(true);
    expect(seen).toBe(3);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('once stopped, refuses every request without sending it and aborts the ones in flight', async () => {
    let seen = 0;
    const base = await listen((_req, res) => {
      seen++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":'); // and never ends: the request is in flight until the stop
    });
    const stop = new AbortController();
    const send = createSend({ baseUrl: base, stop: stop.signal, timeoutMs: 60_000 });
    const inFlight = send({ method: 'GET', path: '/account' });
    while (seen === 0) await new Promise((r) => setTimeout(r, 5));
    stop.abort(new RunStopped('interrupted by SIGINT'));
    expect((await inFlight).error).toBe('interrupted: the run stopped (interrupted by SIGINT)');
    const later = await send({ method: 'GET', path: '/account' });
    expect({ error: later.error, response: later.response, seen }).toEqual({
      error: 'interrupted: the run stopped (interrupted by SIGINT)',
      response: undefined,
      seen: 1,
    });
  });

  it('sends nothing outside the target origin and the configured ones, whatever URL it is given', async () => {
    const seen: string[] = [];
    const elsewhere = new URL(await listen((req, res) => (seen.push(req.url ?? ''), res.end('x')))).origin;
    const control = await listen((_req, res) => res.end('{}'));
    const base = await listen((_req, res) => res.end('{}'));
    const origin = new URL(base).origin;
    const send = createSend({ baseUrl: base, alsoTo: [control], timeoutMs: 5_000, breakAfter: 1 });
    const refused = [
      `${elsewhere}/i/r.png`,
      `${origin}@${elsewhere.slice('http://'.length)}/i/r.png`,
      `http://localhost:${new URL(base).port}/i/r.png`,
    ];
    for (const path of refused) {
      const ex = await send({ method: 'GET', path, key: 'vto_live_secret' });
      expect({ response: ex.response, error: ex.error }).toEqual({
        response: undefined,
        error: expect.stringMatching(/^refused: .* is outside the target's origin/),
      });
    }
    // A refusal says nothing of the target: the circuit (one failure here) stays closed.
    expect((await send({ method: 'GET', path: `${origin}/i/r.png` })).response?.status).toBe(200);
    expect((await send({ method: 'GET', path: `${control}/settings` })).response?.status).toBe(200);
    expect(seen).toEqual([]);
  });

  it('hands no reader a JSON body nested 200,000 levels deep, and says why', async () => {
    const base = await listen(answerJson('['.repeat(200_000) + ']'.repeat(200_000)));
    const ex = await createSend({ baseUrl: base })({ method: 'GET', path: '/account' });
    expect({
      status: ex.response?.status,
      json: ex.response?.json,
      unread: ex.response?.jsonUnread,
      text: ex.response?.text.length,
    }).toEqual({
      status: 200,
      json: undefined,
      unread: `the target answered a JSON body nested deeper than ${maxJsonDepth} levels`,
      text: 64 * 1024,
    });
  });

  it('does not parse a JSON body over the JSON bound, though it reads it whole', async () => {
    const base = await listen(answerJson(JSON.stringify({ pad: 'x'.repeat(maxJsonBytes) })));
    const ex = await createSend({ baseUrl: base })({ method: 'GET', path: '/account' });
    expect({ json: ex.response?.json, truncated: ex.response?.truncated, unread: ex.response?.jsonUnread }).toEqual({
      json: undefined,
      truncated: false,
      unread: expect.stringMatching(
        /^the target answered a body of \d+ bytes, over the 1048576 the runner reads as JSON$/,
      ),
    });
  });
});
