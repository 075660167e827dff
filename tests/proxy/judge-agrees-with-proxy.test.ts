/**
 * One code path for both halves: traffic through the proxy, recorded by it (NDJSON and HAR) and judged
 * offline with `judge FILE`, gives the same verdicts as the proxy's own final report, the server's
 * requirements and each client's rules alike, a client's dropped call included.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judge } from '../../src/cli/judge.ts';
import type { ScenarioName } from '../../src/fixtures/scenarios.ts';
import type { ClientGrade } from '../../src/grade/grade.ts';
import type { liveJudgement } from '../../src/proxy/live-judgement.ts';
import type { Report } from '../../src/report/model.ts';
import { startRecordingProxy } from './recording-proxy.ts';
import { controlToken, startHarness, urlBody, type Harness } from '../server/harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'tryon-judge-agrees-'));
let h: Harness;
let live: ReturnType<typeof liveJudgement>;
let liveReport: Report;
let liveGrade: ClientGrade;
const files = { ndjson: join(dir, 'traffic.ndjson'), har: join(dir, 'traffic.har') };

beforeAll(async () => {
  h = await startHarness({ settings: { syncWaitMs: 300, slowGenerationMs: 3_000, generationLatencyMs: 50 } });
  const proxy = await startRecordingProxy(h.base, files);
  const { origin } = proxy;
  live = proxy.live;
  const base = `${origin}/api/v1`;
  // As a run does: test control's settings, read through the proxy, name the fixture origin the server trusts.
  const settings = await request(`${origin}/_control/settings`, {
    headers: { authorization: `Bearer ${controlToken}` },
  });
  await settings.body.text();
  const account = await h.newAccount();
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await request(`${base}${path}`, {
      method: method as 'GET',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? null : JSON.stringify(body),
      ...(path === '/tryons/sync' && { signal: AbortSignal.timeout(100) }),
    });
    return (await res.body.json()) as { id: string };
  };
  const input = (scenario?: ScenarioName) => ({ ...urlBody(h, scenario), consent: true });
  await send('GET', '/account');
  // A new key on each retry of a 502, at once.
  for (let i = 0; i < 3; i++)
    await send('POST', '/tryons', input('start-failed'), { 'idempotency-key': `key-new-${i}` });
  const started = await send('POST', '/tryons', input(), { 'idempotency-key': 'key-good' });
  for (let i = 0; i < 3; i++) await send('GET', `/tryons/${started.id}`);
  await send('POST', '/tryons', input(), { 'idempotency-key': 'key-good' });
  // A sync call dropped at 100 ms.
  await expect(
    send('POST', '/tryons/sync', input('slow-generation'), { 'idempotency-key': 'key-sync' }),
  ).rejects.toThrow();
  await new Promise((r) => setTimeout(r, 300));
  await send('GET', '/account');
  await new Promise((r) => setTimeout(r, 100));
  await proxy.close();
  liveReport = live.report(true);
  liveGrade = live.grade();
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

const serverVerdicts = (r: Report) => Object.fromEntries(r.requirements.map((q) => [q.id, q.verdict]));
const clientVerdicts = (g: ClientGrade) =>
  g.callers.map((c) => [c.caller, c.requests, Object.fromEntries(c.rules.map((r) => [r.id, r.verdict]))]);

describe('judge FILE and the proxy', () => {
  it('the live report has both halves, with the careless client flagged', () => {
    const rules = clientVerdicts(liveGrade)[0]?.[2] as Record<string, string>;
    expect(rules['ERR-CLIENT-RETRY-SAME-KEY']).toBe('fail');
    expect(rules['SYNC-CLIENT-TIMEOUT-70-SECONDS']).toBe('fail');
    expect(serverVerdicts(liveReport)['CREATE-IDEMPOTENCY-REPLAY']).toBe('pass');
    expect(clientVerdicts(liveReport.clientGrade as unknown as ClientGrade)).toEqual(clientVerdicts(liveGrade));
  });

  for (const format of ['ndjson', 'har'] as const) {
    it(`a ${format} recording judged offline gives the live verdicts, both halves`, async () => {
      const reports = join(dir, `reports-${format}`);
      expect(await judge(['--report-dir', reports, files[format]])).toBe(0);
      const read = (name: string) => JSON.parse(readFileSync(join(reports, 'latest', name), 'utf8'));
      const offline = read('report.json') as Report;
      expect(serverVerdicts(offline)).toEqual(serverVerdicts(liveReport));
      expect(clientVerdicts(offline.clientGrade as unknown as ClientGrade)).toEqual(clientVerdicts(liveGrade));
      expect(clientVerdicts(read('client-grade.json') as ClientGrade)).toEqual(clientVerdicts(liveGrade));
    });
  }
});
