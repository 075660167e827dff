/**
 * The proxy's memory stays bounded whatever the size of a body: 20 MiB streamed each way through the
 * `proxy` process grows its RSS by less than one such body (a proxy that held a body whole would grow
 * by at least that). Measured on the proxy's own process, from /proc.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxyProcess, type ProxyProcess } from './proxy-process.ts';
import { bigBody, echoUpstream, type EchoUpstream } from './upstreams.ts';

const big = 20 * 1024 * 1024;
/** The most the proxy's RSS may grow while 2 × 20 MiB pass through it. */
const boundMiB = 16;

describe('proxy memory', () => {
  let upstream: EchoUpstream;
  let proxy: ProxyProcess;
  let dir: string;
  const download = bigBody(big, 7);

  beforeAll(async () => {
    upstream = await echoUpstream((r, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      if (r.url === '/big') download.stream().pipe(response);
      else response.end(r.sha256);
    });
    dir = mkdtempSync(join(tmpdir(), 'proxy-mem-'));
    proxy = await startProxyProcess(['--upstream', upstream.origin, '--token', 'memory-token', '--report-dir', dir]);
  }, 30_000);

  afterAll(async () => {
    await proxy?.stop('SIGKILL');
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`streams 20 MiB each way with RSS growing by less than ${boundMiB} MiB`, async () => {
    // Warm up: the first exchanges load code and fill pools.
    for (let i = 0; i < 20; i++) await (await request(`${proxy.url}/warm`, { method: 'POST', body: 'x' })).body.text();
    const before = proxy.rssMiB();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, proxy.rssMiB());
    }, 10);
    try {
      const upload = bigBody(big, 8);
      const up = await request(`${proxy.url}/upload`, { method: 'PUT', body: upload.stream() });
      expect(await up.body.text()).toBe(upload.sha256);
      const down = await request(`${proxy.url}/big`);
      const hash = createHash('sha256');
      for await (const chunk of down.body) hash.update(chunk as Buffer);
      expect(hash.digest('hex')).toBe(download.sha256);
    } finally {
      clearInterval(sampler);
    }
    process.stdout.write(`proxy memory: RSS ${before.toFixed(1)} → peak ${peak.toFixed(1)} MiB\n`);
    expect(peak - before).toBeLessThan(boundMiB);
  }, 60_000);
});
