/**
 * `judge FILE` at the CLI: a recording (NDJSON as the proxy writes it, HAR from the proxy or another
 * tool) becomes a run's reports; exit 0 or 1 as run, 2 on bad input, one line and no stack trace.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/model.ts';
import { reportProblems } from '../../src/report/read-report.ts';
import { fake, poll, start } from '../../src/traffic/fake-traffic.ts';
import { harHead, harTail, toHarEntry, toNdjsonLine } from '../../src/traffic/recording.ts';
import type { TrafficExchange } from '../../src/traffic/traffic-exchange.ts';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tryon-judge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function write(name: string, text: string): string {
  const file = join(dir, `${++files}-${name}`);
  writeFileSync(file, text);
  return file;
}
const ndjson = (traffic: readonly TrafficExchange[]) =>
  write('traffic.ndjson', `${traffic.map(toNdjsonLine).join('\n')}\n`);

/** Runs `judge` with its reports in a directory of their own; the report it wrote, if any. */
function judge(file: string, ...flags: string[]) {
  const reports = join(dir, `reports-${++files}`);
  const out = spawnSync(process.execPath, [bin, 'judge', '--report-dir', reports, ...flags, file], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  let report: Report | undefined;
  try {
    report = JSON.parse(readFileSync(join(reports, 'latest', 'report.json'), 'utf8')) as Report;
  } catch {
    report = undefined;
  }
  const verdict = (id: string) => report?.requirements.find((r) => r.id === id)?.verdict;
  return { ...out, report, reports, verdict };
}

const conforming = [
  start('ton_1', 'key-00000001', 0),
  poll('ton_1', 'pending', 2),
  poll('ton_1', 'success', 4),
  poll('ton_1', 'success', 6),
  start('ton_1', 'key-00000001', 8),
  fake({ path: '/api/v1/tryons/ton_404', status: 404, json: { error: 'No such try-on.', code: 'NOT_FOUND' }, at: 9 }),
];

describe('tryon-conformance judge', () => {
  it('a conforming recording passes what it exercised, writes the four reports, exits 0', () => {
    const r = judge(ndjson(conforming));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Judged 6 exchanges/);
    // The server's four reports, and the clients' grade beside them, as the proxy writes them.
    expect(readdirSync(join(r.reports, 'latest')).sort()).toEqual([
      'client-grade.html',
      'client-grade.json',
      'client-grade.junit.xml',
      'client-grade.md',
      'junit.xml',
      'report.html',
      'report.json',
      'report.md',
    ]);
    expect(r.report?.source).toBe('traffic');
    expect(reportProblems(r.report)).toEqual([]);
    expect(r.report?.requirements.filter((x) => x.verdict === 'fail')).toEqual([]);
    for (const id of ['CREATE-IDEMPOTENCY-REPLAY', 'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED', 'ERR-ENVELOPE-SHAPE'])
      expect(r.verdict(id), id).toBe('pass');
  });

  it('a status moving success → pending fails the try-on state rule', () => {
    const r = judge(
      ndjson([start('ton_1', 'key-00000001', 0), poll('ton_1', 'success', 2), poll('ton_1', 'pending', 4)]),
    );
    expect(r.verdict('STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED')).toBe('fail');
    // As in a run, an implementation-defined point decides no exit status.
    expect(r.status).toBe(0);
  });

  it('an idempotent replay with another id fails CREATE-IDEMPOTENCY-REPLAY and exits 1', () => {
    const r = judge(ndjson([start('ton_1', 'key-00000001', 0), start('ton_2', 'key-00000001', 3)]));
    expect(r.verdict('CREATE-IDEMPOTENCY-REPLAY')).toBe('fail');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/CREATE-IDEMPOTENCY-REPLAY/);
  });

  it('traffic that exercises nothing is not a pass', () => {
    const r = judge(write('empty.har', harHead('0') + harTail), '--format', 'har');
    expect(r.status).toBe(0);
    expect(r.report?.requirements.filter((x) => x.verdict === 'pass')).toEqual([]);
    expect(r.verdict('CREATE-IDEMPOTENCY-REPLAY')).toBe('not-observable');
  });

  it("the proxy's HAR reads as its NDJSON", () => {
    const har = write('traffic.har', harHead('0') + conforming.map(toHarEntry).join(',\n') + harTail);
    const r = judge(har);
    expect(r.status).toBe(0);
    expect(r.verdict('CREATE-IDEMPOTENCY-REPLAY')).toBe('pass');
  });

  it("another tool's HAR: the Authorization header becomes the account digest and never reaches a report", () => {
    const key = 'vto_live_Q8s9TzR2mW8cKx1bN6yPa3Le';
    const entry = (id: string, at: number) => ({
      startedDateTime: new Date(1_764_000_000_000 + at * 1000).toISOString(),
      time: 40,
      request: {
        method: 'POST',
        url: 'https://staging.example.com/api/v1/tryons',
        httpVersion: 'HTTP/1.1',
        headers: [
          { name: 'Authorization', value: `Bearer ${key}` },
          { name: 'Idempotency-Key', value: 'order-8841-tryon-01' },
          { name: 'Content-Type', value: 'application/json' },
        ],
        postData: {
          mimeType: 'application/json',
          text: '{"personImageId":"img_1","garmentImageId":"img_2","consent":true}',
        },
      },
      response: {
        status: 200,
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        content: {
          mimeType: 'application/json',
          text: JSON.stringify({ id, status: 'pending', pollUrl: `/api/v1/tryons/${id}` }),
        },
      },
    });
    const har = write(
      'foreign.har',
      JSON.stringify({ log: { version: '1.2', entries: [entry('ton_a', 0), entry('ton_b', 5)] } }),
    );
    const r = judge(har);
    expect(r.verdict('CREATE-IDEMPOTENCY-REPLAY')).toBe('fail');
    for (const name of readdirSync(join(r.reports, 'latest')))
      expect(readFileSync(join(r.reports, 'latest', name), 'utf8'), name).not.toContain('Q8s9TzR2mW8cKx1bN6yPa3Le');
  });

  it('bad input: one clear line and exit 2, never a stack trace', () => {
    for (const [args, said] of [
      [[write('garbage.ndjson', 'not json\n{"also": "not a record"}\n')], /no readable exchange/],
      [[join(dir, 'missing.ndjson')], /no such file/],
      [['--format', 'xml', join(dir, 'x')], /--format must be ndjson or har/],
      [[write('broken.har', '{"log": {"entries": [')], /not a HAR 1\.2 file/],
      [['--limits', 'starts=0', join(dir, 'x')], /--limits/],
    ] as const) {
      const r = spawnSync(process.execPath, [bin, 'judge', '--report-dir', join(dir, 'bad'), ...args], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(said);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('a line over the bound is skipped and counted; the rest is judged', () => {
    const long = `{"pad":"${'x'.repeat(8 * 1024 * 1024 + 10)}"}`;
    const file = write(
      'long.ndjson',
      [toNdjsonLine(conforming[0] as TrafficExchange), long, ...conforming.slice(1).map(toNdjsonLine), ''].join('\n'),
    );
    const r = judge(file);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/1 records not read, the first: record 2: a line over \d+ characters, skipped/);
    expect(r.report?.traffic?.unreadRecords).toBe(1);
    expect(r.verdict('CREATE-IDEMPOTENCY-REPLAY')).toBe('pass');
  });
});
