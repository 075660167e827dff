/** The held-sync load's h2c client (sandbox-h2c.ts) against a loopback HTTP/2 cleartext server. */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { H2cClient, streamsPerSession } from './sandbox-h2c.ts';

let server: http2.Http2Server;
let origin: string;
const sessions = new Set<http2.ServerHttp2Session>();
let held: http2.ServerHttp2Stream[] = [];

beforeAll(async () => {
  server = http2.createServer();
  server.on('session', (s) => sessions.add(s));
  server.on('stream', (stream, headers) => {
    const path = String(headers[':path']);
    if (path === '/hold') return void held.push(stream);
    if (path === '/big') {
      stream.respond({ ':status': 200, 'content-type': 'application/json' });
      return void stream.end(Buffer.alloc(100 * 1024, 0x20));
    }
    let body = '';
    stream.on('data', (chunk: Buffer) => void (body += chunk.toString()));
    stream.on('end', () => {
      stream.respond({ ':status': 202, 'content-type': 'application/json' });
      stream.end(JSON.stringify({ status: 'pending', got: body, key: headers['idempotency-key'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sessions) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('H2cClient', () => {
  it('sends a request with its headers and body and reads the status and JSON answer', async () => {
    const client = new H2cClient(origin);
    try {
      const answer = await client.request('POST', '/x', { 'idempotency-key': 'key-12345678' }, '{"a":1}', 5_000);
      expect(answer).toEqual({ status: 202, body: { status: 'pending', got: '{"a":1}', key: 'key-12345678' } });
    } finally {
      client.destroy();
    }
  });

  it('holds more requests at once than one connection carries, on as few connections as it needs', async () => {
    const client = new H2cClient(origin);
    const before = sessions.size;
    held = [];
    try {
      const n = streamsPerSession * 2 + 10;
      const answers = Array.from({ length: n }, () => client.request('GET', '/hold', {}, undefined, 10_000));
      const deadline = Date.now() + 10_000;
      while (held.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(held.length).toBe(n);
      expect(sessions.size - before).toBe(3);
      for (const stream of held) {
        stream.respond({ ':status': 200 });
        stream.end('{}');
      }
      expect((await Promise.all(answers)).every((a) => a.status === 200)).toBe(true);
    } finally {
      client.destroy();
    }
  });

  it('gives up on an answer over 64 KiB, and on one that does not come in time', async () => {
    const client = new H2cClient(origin);
    held = [];
    try {
      await expect(client.request('GET', '/big', {}, undefined, 5_000)).rejects.toThrow(/over 65536 bytes/);
      await expect(client.request('GET', '/hold', {}, undefined, 200)).rejects.toMatchObject({ code: 'TIMEOUT' });
    } finally {
      client.destroy();
    }
  });

  it('talks to loopback only', () => {
    expect(() => new H2cClient('http://192.0.2.1:80')).toThrow(/not loopback/);
  });
});
