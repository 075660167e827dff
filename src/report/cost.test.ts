/** A run's cost against its plan: report.json's `cost`, and the same rows in report.md and report.html. */
import { describe, expect, it } from 'vitest';
import {
  againstEstimate,
  costRows,
  cutSentence,
  errorPercent,
  formatError,
  formatWallSeconds,
  runCost,
  type PlannedCost,
} from './cost.ts';
import { fakeInfo, fakeModules, fakeTest, fakeModule } from './fake-run.ts';
import { buildReport } from './model.ts';
import { reportProblems } from './read-report.ts';
import { renderHtml } from './write-html.ts';
import { renderJson } from './write-json.ts';
import { renderMarkdown } from './write-markdown.ts';

const planned: PlannedCost = {
  estimate: { credits: 6, wallSeconds: 435 },
  bound: { credits: 8, wallSeconds: 6120 },
  basis: 'each test’s typical requests through the documented limits.',
};

describe('errorPercent', () => {
  it.each<[number, number, number | null]>([
    [435, 439, -0.9],
    [6, 6, 0],
    [8, 6, 33.3],
    [0, 0, 0],
    [3, 0, null],
  ])('estimate %d against actual %d: %s%', (estimate, actual, percent) => {
    expect(errorPercent(estimate, actual)).toBe(percent);
  });

  it('writes the sign, and n/a where there is no ratio', () => {
    expect([formatError(-0.9), formatError(33.3), formatError(0), formatError(null)]).toEqual([
      '−0.9%',
      '+33.3%',
      '±0%',
      'n/a',
    ]);
    expect([formatWallSeconds(42), formatWallSeconds(439.4), formatWallSeconds(6120)]).toEqual([
      '42 s',
      '7 min 19 s',
      '1 h 42 min',
    ]);
  });
});

describe('againstEstimate', () => {
  it.each<[number, number | null, string]>([
    [629, 1748, 'took 2.8× the estimate'],
    [100, 40, 'took 0.4× the estimate'],
    [7846, 14.4, 'took under 0.1× the estimate'],
    [10, 250, 'took 25× the estimate'],
    [435, 439, 'as estimated'],
    [0, 0, 'as estimated'],
    [0, 3, 'took 3, the estimate was 0'],
    [6, null, 'n/a'],
  ])('estimate %d against actual %s: %s', (estimate, actual, words) => {
    expect(againstEstimate(estimate, actual, 'took')).toBe(words);
  });
});

describe('runCost', () => {
  it('puts the estimate and the bound against the actual', () => {
    const cost = runCost(planned, { credits: 6, creditsCounted: 'by GET /account', wallSeconds: 439 });
    expect(cost.errorPercent).toEqual({ credits: 0, wallSeconds: -0.9 });
    expect(costRows(cost)).toEqual([
      ['Credits', '6', 'at most 8', '6', 'as estimated'],
      ['Wall time', '7 min 15 s', 'at most 1 h 42 min', '7 min 19 s', 'as estimated'],
    ]);
  });

  it('leaves the credits error out when the run could not count them', () => {
    const cost = runCost(planned, { credits: null, creditsCounted: 'not counted', wallSeconds: 400 });
    expect(cost.errorPercent.credits).toBeNull();
    expect(costRows(cost)[0]).toEqual(['Credits', '6', 'at most 8', 'not counted', 'n/a']);
    expect(costRows(runCost(planned, { credits: 3, creditsCounted: 'by GET /account', wallSeconds: 1218 }))).toEqual([
      ['Credits', '6', 'at most 8', '3', 'spent 0.5× the estimate'],
      ['Wall time', '7 min 15 s', 'at most 1 h 42 min', '20 min 18 s', 'took 2.8× the estimate'],
    ]);
  });
});

describe('the report of a run with a plan', () => {
  const spent = fakeModule('src/suite/credits.suite.ts', [
    fakeTest({ name: 'spends', state: 'passed', requirements: [], meta: { creditsUsed: 2 } }),
    fakeTest({ name: 'spends more', state: 'passed', requirements: [], meta: { creditsUsed: 5 } }),
  ]);
  const report = buildReport([...fakeModules(), spent], { ...fakeInfo, durationMs: 439_400, plannedCost: planned });

  it('counts the credits the worker said the run spent, once the last test settled', () => {
    expect(report.cost?.actual).toMatchObject({ credits: 5, wallSeconds: 439.4 });
    expect(report.cost?.errorPercent).toEqual({ credits: 20, wallSeconds: -1 });
  });

  it('counts no credits of a run with test control: its accounts are its own', () => {
    const controlled = buildReport(fakeModules(), {
      ...fakeInfo,
      capabilities: new Map([['test-control', true]]),
      plannedCost: planned,
    });
    expect(controlled.cost?.actual.credits).toBeNull();
    expect(controlled.cost?.actual.creditsCounted).toMatch(/^not counted: with test control/);
  });

  it('is valid report.json, and has no cost without a plan', () => {
    expect(reportProblems(JSON.parse(renderJson(report)))).toEqual([]);
    expect(buildReport(fakeModules(), fakeInfo).cost).toBeUndefined();
  });

  it('shows planned against actual in report.md and report.html', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('### Cost: planned against actual');
    expect(md).toContain('| Credits | 6 | at most 8 | 5 | spent 0.8× the estimate |');
    expect(md).toContain('| Wall time | 7 min 15 s | at most 1 h 42 min | 7 min 19 s | as estimated |');
    const html = renderHtml(report);
    expect(html).toContain('<h2>Cost: planned against actual</h2>');
    expect(html).toContain(
      '<tr><td>Wall time</td><td>7 min 15 s</td><td>at most 1 h 42 min</td><td>7 min 19 s</td><td>as estimated</td></tr>',
    );
  });
});

describe('a run the wall-time bound stopped', () => {
  const bound = "the run's wall-time bound of 12.3 min was reached";
  const stopped = fakeModule('src/suite/sync.suite.ts', [
    fakeTest({ name: 'done', state: 'passed', requirements: [] }),
    fakeTest({
      name: 'waiting',
      state: 'failed',
      requirements: [],
      errors: [{ message: `inconclusive: the run stopped before this test finished (${bound})` }],
    }),
    fakeTest({
      name: 'later',
      state: 'skipped',
      requirements: [],
      meta: { skipReason: `not run: the run was interrupted (${bound})` },
    }),
    fakeTest({
      name: 'last',
      state: 'skipped',
      requirements: [],
      meta: { skipReason: `not run: the run was interrupted (${bound})` },
    }),
    fakeTest({
      name: 'no key',
      state: 'skipped',
      requirements: [],
      meta: { skipReason: 'needs second-account: none given' },
    }),
  ]);
  const report = buildReport([stopped], {
    ...fakeInfo,
    plannedCost: planned,
    interrupted: { reason: bound, at: new Date('2026-11-27T03:00:00Z') },
  });

  it('says which tests it cut: the one it stopped mid-way and those it never ran', () => {
    const said = `The run stopped early (${bound}): 1 test stopped mid-way (waiting); 2 tests not run (later; last).`;
    expect(cutSentence(report.interrupted, report.tests)).toBe(said);
    expect(renderMarkdown(report)).toContain(said);
    expect(renderHtml(report)).toContain('1 test stopped mid-way (waiting); 2 tests not run (later; last).');
  });

  it('says nothing of cut tests in a run that was not stopped', () => {
    expect(cutSentence(undefined, report.tests)).toBeUndefined();
    expect(renderMarkdown(buildReport([stopped], { ...fakeInfo, plannedCost: planned }))).not.toContain(
      'stopped early',
    );
  });
});
