import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headline } from './format.ts';
import { buildReport } from './model.ts';
import { fakeInfo, fakeModules, fakeReport } from './fake-run.ts';
import { InvalidReportError, readReport, reportProblems } from './read-report.ts';
import { renderJson } from './write-json.ts';

describe('report.schema.json', () => {
  it('accepts the report of a run, read back from its JSON', () => {
    expect(reportProblems(JSON.parse(renderJson(fakeReport())))).toEqual([]);
  });

  it('accepts a report judged against the whole catalogue with no tests', () => {
    expect(reportProblems(JSON.parse(renderJson(buildReport([], fakeInfo))))).toEqual([]);
  });

  it('accepts an interrupted run, whose requirements no test that ran covers are skips, and says so in the headline', () => {
    const report = buildReport([], {
      ...fakeInfo,
      interrupted: { signal: 'SIGINT', reason: 'stopped by SIGINT (Ctrl-C)', at: new Date('2026-11-23T10:00:00Z') },
    });
    expect(reportProblems(JSON.parse(renderJson(report)))).toEqual([]);
    expect(report.interrupted).toEqual({
      signal: 'SIGINT',
      reason: 'stopped by SIGINT (Ctrl-C)',
      at: '2026-11-23T10:00:00.000Z',
    });
    const covered = report.requirements.filter((r) => r.verdict !== 'not-observable');
    expect(new Set(covered.map((r) => `${r.verdict}: ${r.reason ?? ''}`))).toEqual(
      new Set(['skip: not run: the run was interrupted (stopped by SIGINT (Ctrl-C)) before any test of it']),
    );
    expect(headline(report)).toBe(
      'Interrupted: stopped by SIGINT (Ctrl-C) at 2026-11-23 10:00:00 UTC; no requirement was judged before it',
    );
    const judged = buildReport(fakeModules(), {
      ...fakeInfo,
      interrupted: { reason: "the run's wall-time bound of 30 min was reached", at: new Date('2026-11-23T10:00:00Z') },
    });
    expect(headline(judged)).toMatch(
      /^Interrupted: the run's wall-time bound of 30 min was reached at 2026-11-23 10:00:00 UTC; the verdicts so far, of the tests that ran: (Does not conform|Conforms|Run error)/,
    );
    expect(reportProblems(JSON.parse(renderJson(judged)))).toEqual([]);
  });

  const broken: Array<[string, (r: Record<string, unknown>) => void, string]> = [
    [
      'an unknown verdict',
      (r) => ((r.requirements as Array<Record<string, unknown>>)[0]!.verdict = 'maybe'),
      '/requirements/0/verdict',
    ],
    [
      'a fail without failures',
      (r) => ((r.requirements as Array<Record<string, unknown>>).find((q) => q.verdict === 'fail')!.failures = []),
      '/failures',
    ],
    [
      'a skip without a reason',
      (r) => delete (r.requirements as Array<Record<string, unknown>>).find((q) => q.verdict === 'skip')!.reason,
      'reason',
    ],
    [
      'credentials in the base URL',
      (r) => ((r.target as Record<string, unknown>).baseUrl = 'https://user:pw@example.com/api/v1'),
      '/target/baseUrl',
    ],
    ['a field the model does not have', (r) => (r.extra = 1), 'additional properties'],
  ];

  it.each(broken)('rejects %s', (_name, breakIt, where) => {
    const report = JSON.parse(renderJson(fakeReport())) as Record<string, unknown>;
    breakIt(report);
    expect(reportProblems(report).join('\n')).toContain(where);
  });

  it('rejects a version 2 report without choices, and reads a version 1 report (written before them) with none', async () => {
    const report = JSON.parse(renderJson(fakeReport())) as Record<string, unknown>;
    delete report.choices;
    expect(reportProblems(report).join('\n')).toContain("must have required property 'choices'");
    const v1 = await readReport(fileURLToPath(new URL('./__fixtures__/report-v1.json', import.meta.url)));
    expect(v1.schemaVersion).toBe(1);
    expect(v1.choices).toEqual([]);
    expect(v1.summary.requirements.inconclusive).toBe(0);
    expect(v1.summary.byLevel.MUST.inconclusive).toBe(0);
  });

  it('reads a report.json back, and refuses a file that is not one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tryon-report-'));
    try {
      await writeFile(join(dir, 'report.json'), renderJson(fakeReport()));
      expect((await readReport(join(dir, 'report.json'))).summary.requirements.total).toBe(
        fakeReport().requirements.length,
      );
      await writeFile(join(dir, 'other.json'), '{"hello": "world"}');
      const error = await readReport(join(dir, 'other.json')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidReportError);
      expect((error as InvalidReportError).code).toBe('INVALID_REPORT');
      expect((error as Error).message).toContain("must have required property 'schemaVersion'");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
