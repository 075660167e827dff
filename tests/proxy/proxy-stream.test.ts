/**
 * Through the proxy, bytes and headers are as sent: the body the upstream receives has the digest
 * of the body the client sent, the body the client receives that of the body the upstream sent,
 * and no header is added or removed beyond the hop-by-hop ones (and Host, which names the upstream).
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxy, type ReverseProxy } from '../../src/proxy/proxy-app.ts';
import type { TrafficExchange } from '../../src/traffic/traffic-exchange.ts';
import { bigBody, echoUpstream, sha256, type EchoUpstream } from './upstreams.ts';

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);
const big = 20 * 1024 * 1024;

describe('proxy: bytes and headers as sent', () => {
  let upstream: EchoUpstream;
  let proxy: ReverseProxy;
  let base: string;
  const seen: TrafficExchange[] = [];
  const download = bigBody(big, 2);
  const image = randomBytes(300_000);

  beforeAll(async () => {
    upstream = await echoUpstream((r, response) => {
      if (r.url === '/big') {
        response.writeHead(200, { 'content-type': 'application/octet-stream', 'x-upstream': 'yes' });
        download.stream().pipe(response);
        return;
      }
      if (r.url === '/image.png') {
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(image.length) });
        return void response.end(image);
      }
      response.writeHead(201, { 'content-type': 'application/json', 'x-custom': 'a', 'set-cookie': ['a=1', 'b=2'] });
      response.end(JSON.stringify({ sha256: r.sha256, bytes: r.bytes, echo: 'Bearer sk_live_abcdefgh12345678' }));
    });
    proxy = await createProxy({
      upstream: upstream.origin,
      token: 'proxy-token',
      observers: [{ observe: (t) => seen.push(t) }],
    });
    base = await proxy.listen('127.0.0.1', 0);
  });

  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('forwards a JSON request and its answer unaltered, headers included', async () => {
    const body = '{"consent": true,  "x":"\\u00e9"}';
    const sent = {
      'content-type': 'application/json',
      authorization: 'Bearer sk_live_abcdefgh12345678',
      'idempotency-key': 'key-1',
      'x-odd-header': 'Value  with  spaces',
    };
    const res = await request(`${base}/api/v1/tryons?x=1&y=%20`, { method: 'POST', headers: sent, body });
    const received = Buffer.from(await res.body.arrayBuffer());
    expect(res.statusCode).toBe(201);
    const at = upstream.received.at(-1);
    expect(at?.url).toBe('/api/v1/tryons?x=1&y=%20');
    expect(at?.sha256).toBe(sha256(body));
    // Every header the client sent arrives, with its value; Host names the upstream; nothing else is added.
    for (const [name, value] of Object.entries(sent)) expect(at?.headers[name]).toBe(value);
    const added = Object.keys(at?.headers ?? {}).filter(
      (n) => !(n in sent) && !['host', 'content-length', 'connection'].includes(n),
    );
    expect(added).toEqual([]);
    expect(at?.headers.host).toBe(new URL(upstream.origin).host);
    // The answer's body and headers as the upstream sent them.
    expect(JSON.parse(received.toString())).toMatchObject({ sha256: sha256(body) });
    expect(res.headers['x-custom']).toBe('a');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    // The same request straight to the upstream: the same end-to-end headers, the same values.
    const direct = await request(`${upstream.origin}/api/v1/tryons?x=1&y=%20`, { method: 'POST', headers: sent, body });
    await direct.body.arrayBuffer();
    const endToEnd = (h: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(h)
          .filter(([n]) => !hopByHop.has(n))
          .sort(([a], [b]) => a.localeCompare(b)),
      );
    expect(endToEnd(res.headers)).toEqual(endToEnd(direct.headers));
    expect(Object.keys(endToEnd(res.headers))).toEqual(['content-type', 'set-cookie', 'x-custom']);
    expect(typeof res.headers.date).toBe('string');
  });

  it('hands the observers the exchange, the key redacted and the account a digest', async () => {
    await new Promise((r) => setTimeout(r, 50));
    const traffic = seen.find((t) => t.exchange.request.url.endsWith('/api/v1/tryons?x=1&y=%20'));
    expect(traffic?.account).toMatch(/^key:[0-9a-f]{16}$/);
    expect(traffic?.exchange.request.headers.authorization).toBe('Bearer [redacted]');
    expect(traffic?.exchange.response?.status).toBe(201);
    expect(traffic?.exchange.response?.json).toMatchObject({ echo: 'Bearer [redacted]' });
    expect(JSON.stringify(traffic)).not.toContain('sk_live_abcdefgh12345678');
    expect(traffic?.partial).toBeUndefined();
  });

  it('streams 20 MiB each way unaltered, with the checks seeing a bounded part', async () => {
    const upload = bigBody(big, 1);
    const up = await request(`${base}/upload`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: upload.stream(),
    });
    await up.body.text();
    expect(upstream.received.at(-1)?.sha256).toBe(upload.sha256);
    expect(upstream.received.at(-1)?.bytes).toBe(big);
    const down = await request(`${base}/big`);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of down.body) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    expect(bytes).toBe(big);
    expect(hash.digest('hex')).toBe(download.sha256);
    expect(down.headers['x-upstream']).toBe('yes');
    await new Promise((r) => setTimeout(r, 50));
    const bigOne = seen.find((t) => t.exchange.request.url.endsWith('/big'));
    expect(bigOne?.partial).toEqual({ request: false, response: true });
    expect(bigOne?.exchange.response?.bytes.length).toBe(256 * 1024);
  });

  it('keeps an image answered to a GET whole for the checks, up to the image bound', async () => {
    const res = await request(`${base}/image.png`);
    expect(sha256(Buffer.from(await res.body.arrayBuffer()))).toBe(sha256(image));
    await new Promise((r) => setTimeout(r, 50));
    const traffic = seen.find((t) => t.exchange.request.url.endsWith('/image.png'));
    expect(traffic?.exchange.response?.bytes.equals(image)).toBe(true);
    expect(traffic?.partial).toBeUndefined();
  });
});
