import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createSend } from './http-client.ts';
import { RunStopped } from './run-stop.ts';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}/api/v1`;
}

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
    expect({ error: later.error, response: later.response, seen }).toEqual({ error: 'interrupted: the run stopped (interrupted by SIGINT)', response: undefined, seen: 1 });
  });
});
