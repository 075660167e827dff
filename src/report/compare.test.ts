import { describe, expect, it } from 'vitest';
import { compareChoices, compareReports, formatChoiceComparison, formatComparison } from './compare.ts';
import { fakeReport } from './fake-run.ts';
import type { ChoiceResult, Report, RequirementResult, Verdict } from './model.ts';

function withVerdicts(base: Report, verdicts: Record<string, Verdict | 'absent'>): Report {
  const requirements = base.requirements.flatMap((r): RequirementResult[] => {
    const v = verdicts[r.id];
    if (v === undefined) return [r];
    if (v === 'absent') return [];
    return [{ ...r, verdict: v }];
  });
  return { ...base, requirements };
}

describe('compareReports', () => {
  const a = fakeReport();

  it('finds nothing between a report and itself', () => {
    expect(compareReports(a, a)).toEqual([]);
    expect(formatComparison([], { a: 'runs/1', b: 'runs/2' })).toBe(
      'No requirement changed its verdict between runs/1 and runs/2.\n',
    );
  });

  it('lists every requirement whose verdict differs: regressions, the fixed, the rest, each in spec order', () => {
    const b = withVerdicts(a, {
      'CREATE-IDEMPOTENCY-REPLAY': 'pass', // fail → pass
      'AUTH-BEARER-REQUIRED': 'fail', // pass → fail
      'AUTH-REVOKED-KEY-401': 'pass', // skip → pass
      'VER-BASE-URL-V1': 'absent', // not-covered → gone from the catalogue
    });
    expect(compareReports(a, b)).toEqual([
      { id: 'AUTH-BEARER-REQUIRED', level: 'MUST', section: 'Authentication', a: 'pass', b: 'fail', kind: 'regressed' },
      { id: 'CREATE-IDEMPOTENCY-REPLAY', level: 'MUST', section: 'Endpoints', a: 'fail', b: 'pass', kind: 'fixed' },
      { id: 'AUTH-REVOKED-KEY-401', level: 'MUST', section: 'Authentication', a: 'skip', b: 'pass', kind: 'changed' },
      { id: 'VER-BASE-URL-V1', level: 'MUST', section: 'Versioning', a: 'not-covered', b: 'absent', kind: 'changed' },
    ]);
  });

  it('formats the changes as an aligned table', () => {
    const b = withVerdicts(a, {
      'AUTH-BEARER-REQUIRED': 'fail',
      'CREATE-IDEMPOTENCY-REPLAY': 'pass',
      'SVC-TYPICAL-CLIENT-FLOW': 'skip',
    });
    expect(
      formatComparison(compareReports(a, b), { a: 'reports/2025-11-21/report.json', b: 'reports/latest/report.json' }),
    ).toBe(
      [
        'A: reports/2025-11-21/report.json',
        'B: reports/latest/report.json',
        '',
        '   Requirement                Level   A               B',
        '─  ─────────────────────────  ──────  ──────────────  ────',
        '✗  AUTH-BEARER-REQUIRED       MUST    pass            fail',
        '✓  CREATE-IDEMPOTENCY-REPLAY  MUST    fail            pass',
        '~  SVC-TYPICAL-CLIENT-FLOW    SHOULD  not observable  skip',
        '',
        '3 requirements changed: 1 regressed, 1 fixed, 1 otherwise changed',
        '',
      ].join('\n'),
    );
  });
});

describe('compareChoices', () => {
  const a = fakeReport();
  const choice = (point: string, ...values: string[]): ChoiceResult => ({
    point,
    values: values.map((value) => ({ value, count: 1, tests: ['t'] })),
  });
  const b: Report = {
    ...a,
    choices: [
      {
        ...choice('idempotency-different-body', '422 IDEMPOTENCY_KEY_REUSED'),
        requirement: 'CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED',
      },
      choice('malformed-json', '400 INVALID_REQUEST'),
      // Same values, other counts and tests: no difference.
      {
        ...choice('title-length', 'counted in UTF-16 code units'),
        values: [{ value: 'counted in UTF-16 code units', count: 7, tests: ['x', 'y'] }],
      },
    ],
  };

  it('finds nothing between a report and itself', () => {
    expect(compareChoices(a, a)).toEqual([]);
    expect(formatChoiceComparison(a, a)).toBe(
      'No implementation-defined point differs: both targets chose the same where both were seen.\n',
    );
  });

  it('lists the points chosen differently, then the points seen in one run only', () => {
    expect(compareChoices(b, a)).toEqual([
      {
        point: 'idempotency-different-body',
        requirement: 'CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED',
        a: ['422 IDEMPOTENCY_KEY_REUSED'],
        b: ['409 IDEMPOTENCY_KEY_CONFLICT'],
        kind: 'differs',
      },
      { point: 'malformed-json', a: ['400 INVALID_REQUEST'], kind: 'only-a' },
      {
        point: 'retry-after-window',
        requirement: 'LIMIT-429-RETRY-AFTER',
        b: ['rolling window, Retry-After 47 s'],
        kind: 'only-b',
      },
    ]);
    expect(formatChoiceComparison(b, a)).toBe(
      [
        'Implementation-defined points (what each target chose where the spec leaves it open; never a regression):',
        '',
        'Chosen differently:',
        '  idempotency-different-body (CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED): A 422 IDEMPOTENCY_KEY_REUSED, B 409 IDEMPOTENCY_KEY_CONFLICT',
        '',
        'Seen only in A:',
        '  malformed-json: A 400 INVALID_REQUEST',
        '',
        'Seen only in B:',
        '  retry-after-window (LIMIT-429-RETRY-AFTER): B rolling window, Retry-After 47 s',
        '',
      ].join('\n'),
    );
  });

  it('never counts a different choice as a changed verdict', () => {
    expect(compareReports(b, a)).toEqual([]);
  });

  it('does not compare choices with a report written before they were recorded (schema v1)', () => {
    const old: Report = { ...a, schemaVersion: 1, choices: [] };
    expect(formatChoiceComparison(old, a, { a: 'old/report.json' })).toBe(
      'Implementation-defined points: not compared; A (old/report.json) was written before choices were recorded (report.json schema v1).\n',
    );
  });
});
