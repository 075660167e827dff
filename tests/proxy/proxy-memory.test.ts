/**
 * The proxy's memory stays bounded whatever the size of a body: 20 MiB streamed each way at once
 * through the `proxy` process grows its RSS by less than 32 MiB (a proxy that held the bodies whole
 * would grow by 40). Measured on the proxy's own process, from /proc.
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
/**
 * The most the proxy's RSS may grow while 20 MiB go each way at once: streaming's own buffers and
 * young-generation garbage take about 16 MiB, up to 25 on a loaded machine; holding the two bodies would take 40.
 */
const boundMiB = 32;

describe('proxy memory', () => {
  let upstream: EchoUpstream;
  let proxy: ProxyProcess;
  let dir: string;
  const download = bigBody(big, 7);
  const warm = bigBody(4 * 1024 * 1024, 9);

  beforeAll(async () => {
    upstream = await echoUpstream((r, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      if (r.url === '/big') download.stream().pipe(response);
      else if (r.url === '/warm') warm.stream().pipe(response);
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
    // Warm up: the first exchanges load code and fill pools, and a 4 MiB body each way grows the
    // buffers streaming uses, so the figure below is what a 20 MiB body adds, not the warm-up.
    for (let i = 0; i < 20; i++) await (await request(`${proxy.url}/small`, { method: 'POST', body: 'x' })).body.text();
    for (let i = 0; i < 2; i++) {
      await (await request(`${proxy.url}/small`, { method: 'PUT', body: warm.stream() })).body.text();
      for await (const _chunk of (await request(`${proxy.url}/warm`)).body);
    }
    await new Promise((r) => setTimeout(r, 500));
    const before = proxy.rssMiB();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, proxy.rssMiB());
    }, 10);
    try {
      // Both at once: a proxy that held its bodies whole would hold 40 MiB at the peak.
      const upload = bigBody(big, 8);
      const sending = (async () => {
        const up = await request(`${proxy.url}/upload`, { method: 'PUT', body: upload.stream() });
        return up.body.text();
      })();
      const receiving = (async () => {
        const down = await request(`${proxy.url}/big`);
        const hash = createHash('sha256');
        for await (const chunk of down.body) hash.update(chunk as Buffer);
        return hash.digest('hex');
      })();
      expect(await sending).toBe(upload.sha256);
      expect(await receiving).toBe(download.sha256);
    } finally {
      clearInterval(sampler);
    }
    process.stdout.write(`proxy memory: RSS ${before.toFixed(1)} → peak ${peak.toFixed(1)} MiB\n`);
    expect(peak - before).toBeLessThan(boundMiB);
  }, 60_000);
});
