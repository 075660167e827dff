import { describe, expect, it } from 'vitest';
import { compareReports, formatComparison } from './compare.ts';
import { fakeReport } from './fake-run.ts';
import type { Report, RequirementResult, Verdict } from './model.ts';

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
    expect(formatComparison([], { a: 'runs/1', b: 'runs/2' })).toBe('No requirement changed its verdict between runs/1 and runs/2.\n');
  });

  it('lists every requirement whose verdict differs, regressions first, then in spec order', () => {
    const b = withVerdicts(a, {
      'CREATE-IDEMPOTENCY-REPLAY': 'pass', // fail → pass
      'AUTH-BEARER-REQUIRED': 'fail', // pass → fail
      'AUTH-REVOKED-KEY-401': 'pass', // skip → pass
      'VER-BASE-URL-V1': 'absent', // not-covered → gone from the catalogue
    });
    expect(compareReports(a, b)).toEqual([
      { id: 'AUTH-BEARER-REQUIRED', level: 'MUST', section: 'Authentication', a: 'pass', b: 'fail', kind: 'regressed' },
      { id: 'AUTH-REVOKED-KEY-401', level: 'MUST', section: 'Authentication', a: 'skip', b: 'pass', kind: 'changed' },
      { id: 'VER-BASE-URL-V1', level: 'MUST', section: 'Versioning', a: 'not-covered', b: 'absent', kind: 'changed' },
      { id: 'CREATE-IDEMPOTENCY-REPLAY', level: 'MUST', section: 'Endpoints', a: 'fail', b: 'pass', kind: 'fixed' },
    ]);
  });

  it('formats the changes as an aligned table', () => {
    const b = withVerdicts(a, { 'AUTH-BEARER-REQUIRED': 'fail', 'CREATE-IDEMPOTENCY-REPLAY': 'pass', 'SVC-TYPICAL-CLIENT-FLOW': 'skip' });
    expect(formatComparison(compareReports(a, b), { a: 'reports/2025-11-21/report.json', b: 'reports/latest/report.json' })).toBe(
      [
        'A: reports/2025-11-21/report.json',
        'B: reports/latest/report.json',
        '',
        '   Requirement                Level   A               B',
        '─  ─────────────────────────  ──────  ──────────────  ────',
        '✗  AUTH-BEARER-REQUIRED       MUST    pass            fail',
        '~  SVC-TYPICAL-CLIENT-FLOW    SHOULD  not observable  skip',
        '✓  CREATE-IDEMPOTENCY-REPLAY  MUST    fail            pass',
        '',
        '3 requirements changed: 1 regressed, 1 fixed, 1 otherwise changed',
        '',
      ].join('\n'),
    );
  });
});
