/**
 * The `proxy` command in front of a real reference server: the report endpoint needs the token, a
 * held sync request passes after its hold, a recording is written redacted, and SIGTERM writes the
 * report in a run's layout (which `compare` reads).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportProblems } from '../../src/report/read-report.ts';
import { readRecording } from '../../src/traffic/recording.ts';
import { startHarness, urlBody, type Harness } from '../server/harness.ts';
import { startProxyProcess, type ProxyProcess } from './proxy-process.ts';

const token = 'proxy-test-token';

describe('proxy in front of the reference server', () => {
  let h: Harness;
  let proxy: ProxyProcess;
  let dir: string;
  let apiKey: string;

  beforeAll(async () => {
    h = await startHarness({ settings: { syncWaitMs: 4_000 } });
    dir = mkdtempSync(join(tmpdir(), 'proxy-ref-'));
    const args = ['--upstream', h.base, '--token', token, '--report-dir', join(dir, 'reports')];
    proxy = await startProxyProcess([...args, '--record', join(dir, 'traffic.ndjson')]);
    apiKey = (await h.newAccount()).apiKey;
  }, 60_000);

  afterAll(async () => {
    await proxy?.stop('SIGKILL');
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the API through it', async () => {
    const res = await request(`${proxy.url}/api/v1/account`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toMatchObject({ credits: 20 });
  });

  it('serves /_proxy/report only with the token, in each format', async () => {
    const none = await request(`${proxy.url}/_proxy/report`);
    expect(none.statusCode).toBe(401);
    expect(await none.body.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const wrong = await request(`${proxy.url}/_proxy/report`, {
      headers: { authorization: 'Bearer proxy-test-tokem' },
    });
    expect(wrong.statusCode).toBe(401);
    await wrong.body.text();
    const auth = { authorization: `Bearer ${token}` };
    const json = await request(`${proxy.url}/_proxy/report`, { headers: auth });
    expect(json.statusCode).toBe(200);
    const report = (await json.body.json()) as { requirements: unknown[] };
    expect(report.requirements.length).toBeGreaterThan(10);
    const md = await request(`${proxy.url}/_proxy/report?format=markdown`, { headers: auth });
    expect(md.headers['content-type']).toMatch(/^text\/markdown/);
    expect(await md.body.text()).toMatch(/^#/);
    const html = await request(`${proxy.url}/_proxy/report`, { headers: { ...auth, accept: 'text/html' } });
    expect(await html.body.text()).toMatch(/<html/i);
    const junit = await request(`${proxy.url}/_proxy/report?format=junit`, { headers: auth });
    expect(await junit.body.text()).toMatch(/<testsuites/);
    const grade = await request(`${proxy.url}/_proxy/client-grade?format=json`, { headers: auth });
    expect(grade.statusCode).toBe(200);
    expect(await grade.body.json()).toMatchObject({ kind: 'client-grade' });
    // Never forwarded: the upstream has no such path, and the proxy answers it itself.
    const other = await request(`${proxy.url}/_proxy/nothing`, { headers: auth });
    expect(other.statusCode).toBe(404);
    expect(await other.body.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('passes a sync request held for seconds', async () => {
    const started = performance.now();
    const res = await request(`${proxy.url}/api/v1/tryons/sync`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': 'held-sync-1',
      },
      body: JSON.stringify(urlBody(h, 'slow-generation')),
      headersTimeout: 70_000,
    });
    const body = (await res.body.json()) as { status: string; pollUrl?: string };
    expect(res.statusCode).toBe(202);
    expect(body.status).toBe('pending');
    expect(performance.now() - started).toBeGreaterThan(3_500);
  });

  it('on SIGTERM writes the report in a run layout and closes the recording, redacted', async () => {
    const code = await proxy.stop('SIGTERM');
    expect(code).toBe(0);
    const latest = join(dir, 'reports', 'latest');
    for (const file of ['report.json', 'report.md', 'report.html', 'junit.xml', 'client-grade.json'])
      expect(existsSync(join(latest, file)), file).toBe(true);
    expect(reportProblems(JSON.parse(readFileSync(join(latest, 'report.json'), 'utf8')))).toEqual([]);
    const recording = readFileSync(join(dir, 'traffic.ndjson'), 'utf8');
    expect(recording).not.toContain(apiKey);
    const read = readRecording(recording);
    expect(read.problems).toEqual([]);
    expect(
      read.exchanges.map((t) => `${t.exchange.request.method} ${new URL(t.exchange.request.url).pathname}`),
    ).toEqual(['GET /api/v1/account', 'POST /api/v1/tryons/sync']);
    expect(read.exchanges[0]?.account).toMatch(/^key:/);
  }, 30_000);
});
