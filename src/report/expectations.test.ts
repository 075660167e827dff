import { describe, expect, it } from 'vitest';
import { exitStatusOf } from './summary.ts';
import { expectationCounts, withExpectations, type Expectation } from './expectations.ts';
import { fakeReport } from './fake-run.ts';
import { headline } from './format.ts';
import { reportProblems } from './read-report.ts';
import { renderJson } from './write-json.ts';

const failingMusts = [
  'CREATE-TITLE-OPTIONAL-UP-TO-120',
  'CREATE-IDEMPOTENCY-REPLAY',
  'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE',
  'CREATE-ACCEPTED-IS-200',
  'ERR-ENVELOPE-SHAPE',
];
const today = new Date('2026-11-27T03:00:00Z');
const entry = (id: string, more: Partial<Expectation> = {}): Expectation => ({ id, reason: `known: ${id}`, ...more });
const apply = (entries: Expectation[], strict = false) =>
  withExpectations(fakeReport(), { file: 'expect.yaml', strict, entries }, today);

describe('withExpectations', () => {
  it('leaves a report alone without an expectations file', () => {
    const report = fakeReport();
    expect(withExpectations(report, undefined, today)).toBe(report);
    expect(exitStatusOf(report.summary.outcome)).toBe(1);
  });

  it('turns a run whose every failing MUST is expected into a pass, the verdicts kept', () => {
    const report = apply(failingMusts.map((id) => entry(id)));
    expect(report.summary.outcome).toBe('pass');
    expect(exitStatusOf(report.summary.outcome)).toBe(0);
    expect(report.summary.requirements.fail).toBe(fakeReport().summary.requirements.fail);
    const marked = report.requirements.filter((r) => r.expected !== undefined);
    expect(marked.map((r) => [r.id, r.verdict, r.expected?.status])).toEqual(
      failingMusts.map((id) => [id, 'fail', 'failing']),
    );
    expect(headline(report)).toBe(
      'Passes with known failures: every judged MUST requirement passes or is an expected failure ' +
        '(5 expected failures, 1 SHOULD/MAY or implementation-defined failing, 2 inconclusive)',
    );
    expect(reportProblems(JSON.parse(renderJson(report)))).toEqual([]);
  });

  it('still fails on a failing MUST the file does not name', () => {
    const report = apply(failingMusts.slice(1).map((id) => entry(id)));
    expect(report.summary.outcome).toBe('fail');
    expect(headline(report)).toBe('Does not conform: 1 MUST requirement failing');
  });

  it('reports an entry whose requirement passes as unexpectedly passing, and one past its date as expired', () => {
    const report = apply([
      ...failingMusts.slice(1).map((id) => entry(id)),
      entry('CREATE-TITLE-OPTIONAL-UP-TO-120', { expires: '2026-11-26' }),
      entry('AUTH-BEARER-REQUIRED', { link: 'https://tickets.example/1' }),
      entry('VER-BASE-URL-V1', { expires: '2026-11-27' }),
    ]);
    expect(report.summary.outcome).toBe('pass');
    expect(expectationCounts(report)).toEqual({
      failing: 4,
      'unexpectedly-passing': 1,
      expired: 1,
      'not-judged': 1,
    });
    const status = (id: string) => report.expectations?.entries.find((e) => e.id === id)?.status;
    expect(status('AUTH-BEARER-REQUIRED')).toBe('unexpectedly-passing');
    expect(status('CREATE-TITLE-OPTIONAL-UP-TO-120')).toBe('expired');
    // Its last day is today: it still holds.
    expect(status('VER-BASE-URL-V1')).toBe('not-judged');
    expect(headline(report)).toMatch(/\(4 expected failures, 1 unexpectedly passing, 1 expired, /);
    expect(reportProblems(JSON.parse(renderJson(report)))).toEqual([]);
  });

  it('fails a strict run on a stale entry, and says why', () => {
    const entries = [...failingMusts.map((id) => entry(id)), entry('AUTH-BEARER-REQUIRED')];
    expect(apply(entries).summary.outcome).toBe('pass');
    const strict = apply(entries, true);
    expect(strict.summary.outcome).toBe('fail');
    expect(headline(strict)).toBe(
      'Does not conform: 1 stale expectation (--strict-expect: 5 expected failures, 1 unexpectedly passing)',
    );
    expect(
      apply(
        failingMusts.map((id) => entry(id)),
        true,
      ).summary.outcome,
    ).toBe('pass');
  });

  it('is described by report.schema.json, which refuses an unknown status or a link that is not http(s)', () => {
    const json = JSON.parse(renderJson(apply([entry('AUTH-BEARER-REQUIRED')]))) as {
      expectations: { entries: Array<Record<string, unknown>> };
    };
    expect(reportProblems(json)).toEqual([]);
    const first = json.expectations.entries[0] ?? {};
    first.status = 'maybe';
    first.link = 'javascript:alert(1)';
    const problems = reportProblems(json).join('\n');
    expect(problems).toContain('/expectations/entries/0/status');
    expect(problems).toContain('/expectations/entries/0/link');
  });
});
