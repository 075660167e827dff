import { describe, expect, it } from 'vitest';
import { compareChoices, compareReports, formatComparison } from './compare.ts';
import { comparisonJson, summariseComparison } from './compare-summary.ts';
import { withExpectations } from './expectations.ts';
import { fakeReport } from './fake-run.ts';
import type { Report, RequirementResult, Verdict } from './model.ts';

const failure = fakeReport().requirements.find((r) => r.verdict === 'fail')?.failures[0];

function withVerdicts(base: Report, verdicts: Record<string, Verdict>): Report {
  const requirements = base.requirements.map((r): RequirementResult => {
    const v = verdicts[r.id];
    if (v === undefined) return r;
    const { failures: _f, reason: _r, ...rest } = r;
    return v === 'fail'
      ? { ...rest, verdict: v, failures: failure ? [failure] : [] }
      : { ...rest, verdict: v, failures: [], ...(v !== 'pass' && { reason: 'r' }) };
  });
  return { ...base, requirements };
}

const a = fakeReport();
const today = new Date('2026-11-27T00:00:00Z');

describe('what counts as a regression', () => {
  it('is never a MAY, an implementation-defined point, or a failure B expects', () => {
    const b = withExpectations(
      withVerdicts(a, {
        'AUTH-BEARER-REQUIRED': 'fail', // MUST pass → fail: a regression
        'ERR-TITLE-TOO-LONG-IMPL-DEFINED': 'fail', // MAY, implementation-defined
        'ERR-NOT-FOUND': 'fail', // expected by B's file
      }),
      { file: 'x.yaml', strict: false, entries: [{ id: 'ERR-NOT-FOUND', reason: 'known' }] },
      today,
    );
    const changes = compareReports(a, b);
    expect(changes.map((c) => [c.id, c.kind, c.allowedAs])).toEqual([
      ['AUTH-BEARER-REQUIRED', 'regressed', undefined],
      ['ERR-NOT-FOUND', 'allowed', 'expected'],
      ['ERR-TITLE-TOO-LONG-IMPL-DEFINED', 'allowed', 'MAY'],
    ]);
    expect(formatComparison(changes)).toContain(
      '!  ERR-NOT-FOUND                    MUST   pass  fail  not a regression: expected',
    );
  });
});

describe('summariseComparison', () => {
  it('says there is nothing when nothing changed', () => {
    expect(summariseComparison([], [], { a: 'ref.json', b: 'mine.json' })).toBe(
      'B (mine.json) against A (ref.json): no regression.\n',
    );
  });

  it('names the regressions first and counts the rest in one paragraph', () => {
    const skips = Object.fromEntries(
      a.requirements.filter((r) => r.verdict === 'pass').map((r) => [r.id, 'skip' as Verdict]),
    );
    const b = withVerdicts(a, {
      ...skips,
      'AUTH-BEARER-REQUIRED': 'fail',
      'ERR-TITLE-TOO-LONG-IMPL-DEFINED': 'fail',
      'CREATE-IDEMPOTENCY-REPLAY': 'pass',
    });
    const text = summariseComparison(compareReports(a, b), compareChoices(a, b), { a: 'ref.json', b: 'mine.json' });
    expect(text.split('\n\n')).toHaveLength(1);
    expect(text.replace(/\n/g, ' ')).toBe(
      'B (mine.json) against A (ref.json): 1 regression (MUST, pass → fail): AUTH-BEARER-REQUIRED. ' +
        '1 requirement newly fails, never a regression (1 MAY). 1 fixed. ' +
        '7 otherwise changed (7 pass → skip). `--format full` lists every change. ',
    );
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('names at most twenty regressions', () => {
    const passing = a.requirements.filter((r) => r.verdict === 'pass' && r.level === 'MUST').map((r) => r.id);
    const b = withVerdicts(a, Object.fromEntries(passing.map((id) => [id, 'fail' as Verdict])));
    const changes = compareReports(a, b).slice(0, 1);
    const many = Array.from({ length: 22 }, (_, i) => ({ ...changes[0]!, id: `R-${i}` }));
    many[3] = { ...many[3]!, level: 'SHOULD' };
    const text = summariseComparison(many, []).replace(/\n/g, ' ');
    expect(text).toContain(
      '22 regressions (MUST, pass → fail unless noted): R-0, R-1, R-2, R-3 (SHOULD, pass → fail), R-4',
    );
    expect(text).toContain('R-19, and 2 more.');
  });
});

describe('comparisonJson', () => {
  it('is the changes and choices as JSON, with a target’s control characters escaped', () => {
    const b = withVerdicts(a, { 'AUTH-BEARER-REQUIRED': 'fail' });
    const withChoice: Report = {
      ...b,
      choices: [{ point: 'p', values: [{ value: 'x\u001b[2J\u202ey\u009b', count: 1, tests: ['t'] }] }],
    };
    const text = comparisonJson(compareReports(a, withChoice), compareChoices(a, withChoice), { a: 'A', b: 'B' });
    expect(text).not.toMatch(/[\u001b\u202e\u009b]/);
    const value = JSON.parse(text) as {
      regressed: boolean;
      counts: { regressed: number };
      choices: { point: string; b: string[] }[];
    };
    expect(value.regressed).toBe(true);
    expect(value.counts.regressed).toBe(1);
    expect(value.choices.find((c) => c.point === 'p')?.b).toEqual(['x\u001b[2J\u202ey\u009b']);
  });
});
