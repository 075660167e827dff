/**
 * A key an answer hands out (test control's new account and rotated key) never reaches a recording:
 * it is kept as its account digest only, and the judge still ties it to its account, live and offline.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judge } from '../../src/cli/judge.ts';
import type { Report } from '../../src/report/model.ts';
import { readTrafficFile } from '../../src/traffic/read-traffic-file.ts';
import { accountOf } from '../../src/traffic/traffic-exchange.ts';
import { startRecordingProxy } from './recording-proxy.ts';
import { controlToken, startHarness, type Harness } from '../server/harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'tryon-handed-out-key-'));
const files = { ndjson: join(dir, 'traffic.ndjson'), har: join(dir, 'traffic.har') };
let h: Harness;
let liveReport: Report;
const keys: string[] = [];
const statuses: number[] = [];

beforeAll(async () => {
  h = await startHarness();
  const proxy = await startRecordingProxy(h.base, files);
  const { origin } = proxy;
  const send = async (path: string, key: string, method: 'GET' | 'POST' = 'GET') => {
    const res = await request(`${origin}${path}`, { method, headers: { authorization: `Bearer ${key}` } });
    statuses.push(res.statusCode);
    return (await res.body.json()) as { accountId: string; apiKey: string };
  };
  const made = await send('/_control/accounts', controlToken, 'POST');
  keys.push(made.apiKey);
  await send('/api/v1/account', made.apiKey);
  const rotated = await send(`/_control/accounts/${made.accountId}/rotate-key`, controlToken, 'POST');
  keys.push(rotated.apiKey);
  await send('/api/v1/account', made.apiKey);
  await send('/api/v1/account', rotated.apiKey);
  await proxy.close();
  liveReport = proxy.live.report(true);
});

afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

const verdictOf = (r: Report, id: string) => r.requirements.find((q) => q.id === id)?.verdict;

describe('a key handed out in an answer', () => {
  it('went through the proxy unaltered: the client got both keys and the server refused the old one', () => {
    expect(statuses).toEqual([200, 200, 200, 401, 200]);
    expect(keys[0]).not.toEqual(keys[1]);
  });

  it('the live judge tied the rotated key to its account: the old key refused keeps the rule', () => {
    expect(verdictOf(liveReport, 'AUTH-ONE-ACTIVE-KEY')).toBe('pass');
  });

  for (const format of ['ndjson', 'har'] as const) {
    it(`a ${format} recording holds each key's digest, never the key, and judges the same offline`, async () => {
      const text = readFileSync(files[format], 'utf8');
      for (const key of keys) {
        expect(text).not.toContain(key);
        expect(text).toContain(`[redacted ${accountOf(`Bearer ${key}`)}]`);
      }
      const reports = join(dir, `reports-${format}`);
      expect(await judge(['--report-dir', reports, files[format]])).toBe(0);
      const offline = JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as Report;
      expect(verdictOf(offline, 'AUTH-ONE-ACTIVE-KEY')).toBe('pass');
    });
  }

  it('a recording from another tool with the keys in clear judges the same, and no report file holds a key', async () => {
    let text = readFileSync(files.ndjson, 'utf8');
    for (const key of keys) text = text.replaceAll(`[redacted ${accountOf(`Bearer ${key}`)}]`, key);
    const clear = join(dir, 'clear.ndjson');
    writeFileSync(clear, text);
    const reports = join(dir, 'reports-clear');
    expect(await judge(['--report-dir', reports, clear])).toBe(0);
    const read: string[] = [];
    await readTrafficFile(clear, 'ndjson', (te) => {
      const answer = te.exchange.response;
      read.push(`${answer?.text} ${JSON.stringify(answer?.json)} ${answer?.bytes.toString('utf8')}`);
    });
    expect(read.join('\n')).toContain('[redacted key:');
    for (const key of keys) expect(read.join('\n')).not.toContain(key);
    const latest = join(reports, 'latest');
    const offline = JSON.parse(readFileSync(join(latest, 'report.json'), 'utf8')) as Report;
    expect(verdictOf(offline, 'AUTH-ONE-ACTIVE-KEY')).toBe('pass');
    for (const name of readdirSync(latest)) {
      const written = readFileSync(join(latest, name), 'utf8');
      for (const key of keys) expect(written, name).not.toContain(key);
    }
  });
});
