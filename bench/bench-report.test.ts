import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { benchProblems } from './bench-schema.ts';
import { judgeGoals } from './goals.ts';
import { goalsSection, renderMarkdown } from './markdown.ts';
import { quickReport } from './report-fixture.ts';

const committed = new URL('../reports/bench/bench.json', import.meta.url);

describe('bench.json and its schema', () => {
  it('the committed reports/bench/bench.json is valid and names its schema', () => {
    expect(existsSync(committed)).toBe(true);
    const json = JSON.parse(readFileSync(committed, 'utf8')) as { $schema?: string };
    expect(benchProblems(json)).toEqual([]);
    expect(json.$schema).toBe('../../bench/bench.schema.json');
    expect(existsSync(new URL(json.$schema ?? '', committed))).toBe(true);
  });

  it('a quick-shaped report is valid, and stays valid through JSON', () => {
    const report = quickReport();
    expect(benchProblems(report)).toEqual([]);
    expect(benchProblems(JSON.parse(JSON.stringify(report)))).toEqual([]);
  });

  it('a benchmark that failed is valid as {error}', () => {
    expect(benchProblems(JSON.parse(JSON.stringify(quickReport({ prism: { error: 'prism did not start' } }))))).toEqual([]);
  });

  it.each([
    ['goals left out', (r: Record<string, unknown>) => delete r.goals, '/: must have required property \'goals\''],
    ['an unknown target', (r: Record<string, unknown>) => ((r.prism as { order: string[] }).order[0] = 'nginx'), '/prism/order/0'],
    ['an unknown field', (r: Record<string, unknown>) => (r.extra = 1), 'must NOT have additional properties'],
  ])('refuses %s', (_name, spoil, problem) => {
    const report = JSON.parse(JSON.stringify(quickReport())) as Record<string, unknown>;
    spoil(report);
    expect(benchProblems(report).join('\n')).toContain(problem);
  });
});

describe('the goals', () => {
  it('judges each goal on its median, with the margin to the target', () => {
    const goals = judgeGoals(quickReport());
    const byId = Object.fromEntries(goals.map((g) => [g.id, g]));
    // reference ÷ floor per round: 0.8, 0.9, 1.0; ÷ silent Prism: 8, 4.5, 10.
    expect(byId['get-vs-floor']).toMatchObject({ verdict: 'met', measured: { n: 3, min: 0.8, median: 0.9, max: 1 }, margin: 0.1, marginPercent: 12.5 });
    expect(byId['get-vs-floor']?.note).toContain('by server CPU per response the same pair reads 0.80×');
    expect(byId['get-vs-silent-prism']).toMatchObject({ verdict: 'met', measured: { median: 8 }, margin: 3 });
    // A quick run holds 200 requests, not 10,000.
    expect(byId['held-sync-memory']).toMatchObject({ verdict: 'not measured' });
    expect(byId['full-run-wall']).toMatchObject({ verdict: 'not met', measured: { median: 24 }, margin: -4, marginPercent: -20 });
  });

  it('renders the goals table at the top of bench.md, with met / not met and by how much', () => {
    const markdown = renderMarkdown(quickReport());
    expect(markdown.indexOf('## Goals')).toBeLessThan(markdown.indexOf('## 1.'));
    const table = goalsSection(quickReport().goals).join('\n');
    expect(table).toContain('| GET /tryons/{id} at 10 connections, reference ÷ bare fastify floor | ≥ 0.80× | 0.90× | 0.80× – 1.00× (3) | **met**: above the target by 0.10× (13 %) |');
    expect(table).toContain('| Full conformance run against the embedded server, wall time | ≤ 20.0 s | 24.0 s | 24.0 s – 24.0 s (1) | **not met**: over by 4.0 s (20 %) |');
    expect(table).toMatch(/10,000 held sync requests.*\| – \| – \| \*\*not measured\*\* \|/);
  });

  it('renders the planned-vs-actual table with the estimate error', () => {
    const markdown = renderMarkdown(quickReport());
    expect(markdown).toContain('| Embedded full | credits | 90 | ≤ 299 | 81 | +11.1 % | **no** |');
    expect(markdown).toContain('| Embedded full | wall time (the suite: first file to report) | 25 s | 440 min 30 s | 22 s | +13.6 % | **no** |');
    expect(markdown).toContain('- The embedded estimate assumed: the earlier run took 25 s.');
  });
});
