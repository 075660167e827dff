import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { benchProblems } from './bench-schema.ts';
import { judgeGoals } from './goals.ts';
import { goalsSection, renderMarkdown } from './markdown.ts';
import { quickReport, version2Report } from './report-fixture.ts';
import { hasError } from './report.ts';

const committed = new URL('../reports/bench/bench.json', import.meta.url);

describe('bench.json and its schema', () => {
  it('the committed reports/bench/bench.json is valid and names its schema', () => {
    expect(existsSync(committed)).toBe(true);
    const json = JSON.parse(readFileSync(committed, 'utf8')) as { $schema?: string };
    expect(benchProblems(json)).toEqual([]);
    expect(json.$schema).toBe('../../bench/bench.schema.json');
    expect(existsSync(new URL(json.$schema ?? '', committed))).toBe(true);
    // bench/render.ts re-renders it, whichever schema version it has.
    expect(renderMarkdown(json as Parameters<typeof renderMarkdown>[0])).toContain(
      '## 4. The cost of a conformance run',
    );
  });

  it('a quick-shaped report is valid, and stays valid through JSON', () => {
    const report = quickReport();
    expect(benchProblems(report)).toEqual([]);
    expect(benchProblems(JSON.parse(JSON.stringify(report)))).toEqual([]);
  });

  it('a report of schema version 2 (the embedded run from the sources only) is still valid, and no other mix of versions is', () => {
    expect(benchProblems(JSON.parse(JSON.stringify(version2Report())))).toEqual([]);
    const v3WithV2Runs = JSON.parse(JSON.stringify({ ...version2Report(), schemaVersion: 3 })) as unknown;
    expect(benchProblems(v3WithV2Runs).join('\n')).toContain("must have required property 'compiled'");
    const v2WithV3Runs = JSON.parse(JSON.stringify({ ...quickReport(), schemaVersion: 2 })) as unknown;
    expect(benchProblems(v2WithV3Runs)).not.toEqual([]);
  });

  it('refuses a version-3 embedded run that does not say which CLI ran it', () => {
    const report = JSON.parse(JSON.stringify(quickReport())) as {
      conformance: { embedded: { runs: Record<string, unknown>[] } };
    };
    delete report.conformance.embedded.runs[1]?.cli;
    expect(benchProblems(report).join('\n')).toContain(
      "/conformance/embedded/runs/1: must have required property 'cli'",
    );
  });

  it('a benchmark that failed is valid as {error}', () => {
    expect(benchProblems(JSON.parse(JSON.stringify(quickReport({ prism: { error: 'prism did not start' } }))))).toEqual(
      [],
    );
  });

  it.each([
    ['goals left out', (r: Record<string, unknown>) => delete r.goals, "/: must have required property 'goals'"],
    [
      'an unknown target',
      (r: Record<string, unknown>) => ((r.prism as { order: string[] }).order[0] = 'nginx'),
      '/prism/order/0',
    ],
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
    expect(byId['get-vs-floor']).toMatchObject({
      verdict: 'met',
      measured: { n: 3, min: 0.8, median: 0.9, max: 1 },
      margin: 0.1,
      marginPercent: 12.5,
    });
    expect(byId['get-vs-floor']?.note).toContain('by server CPU per response the same pair reads 0.80×');
    expect(byId['get-vs-silent-prism']).toMatchObject({ verdict: 'met', measured: { median: 8 }, margin: 3 });
    // A quick run holds 200 requests, not 10,000.
    expect(byId['held-sync-memory']).toMatchObject({ verdict: 'not measured' });
    // The goal is judged on the compiled CLI (18 and 20 s); the run from the sources (24, 24 s) has a row of its own.
    expect(byId['full-run-wall']).toMatchObject({
      verdict: 'met',
      measured: { n: 2, min: 18, median: 19, max: 20 },
      margin: 1,
      marginPercent: 5,
    });
    expect(byId['full-run-wall']?.note).toContain(
      '`node dist/cli/main.js run --profile full --seed 20261122 --report-dir <tmp>`',
    );
    expect(byId['full-run-wall-sources']).toMatchObject({
      verdict: 'not met',
      measured: { n: 2, median: 24 },
      margin: -4,
      marginPercent: -20,
    });
    expect(byId['full-run-wall-sources']?.note).toContain(
      '`node bin/tryon-conformance.js run --profile full --seed 20261122 --report-dir <tmp>`',
    );
  });

  it('judges a CLI with no run as not measured, and one whose runs all failed as not measured with their exit codes', () => {
    const report = quickReport();
    const embedded = report.conformance.embedded as import('./report.ts').EmbeddedRuns;
    const sourcesOnly = {
      ...embedded,
      runs: embedded.runs.filter((r) => r.cli === 'sources'),
      compiled: {
        command: 'node dist/cli/main.js run',
        note: 'not measured: BENCH_FROM_SOURCE=1 builds no fresh dist/',
      },
    };
    const failing = { ...embedded, runs: embedded.runs.map((r) => (r.cli === 'compiled' ? { ...r, exitCode: 1 } : r)) };
    const goal = (e: typeof embedded) =>
      judgeGoals({ ...report, conformance: { ...report.conformance, embedded: e } }).find(
        (g) => g.id === 'full-run-wall',
      );
    expect(goal(sourcesOnly)).toMatchObject({
      verdict: 'not measured',
      note: '`node dist/cli/main.js run`: not measured: BENCH_FROM_SOURCE=1 builds no fresh dist/',
    });
    expect(goal(failing)).toMatchObject({ verdict: 'not measured' });
    expect(goal(failing)?.note).toContain('no run ended with exit 0 (exit 1, exit 1)');
  });

  it('renders the goals table at the top of bench.md, with met / not met and by how much', () => {
    const markdown = renderMarkdown(quickReport());
    expect(markdown.indexOf('## Goals')).toBeLessThan(markdown.indexOf('## 1.'));
    const table = goalsSection(quickReport().goals).join('\n');
    expect(table).toContain(
      '| GET /tryons/{id} at 10 connections, reference ÷ bare fastify floor | ≥ 0.80× | 0.90× | 0.80× – 1.00× (3) | **met**: above the target by 0.10× (13 %) |',
    );
    expect(table).toContain(
      '| Full conformance run against the embedded server, wall time — compiled CLI, as installed (`npx tryon-conformance run`) | ≤ 20.0 s | 19.0 s | 18.0 s – 20.0 s (2) | **met**: under the target by 1.0 s (5 %) |',
    );
    expect(table).toContain(
      '| Full conformance run against the embedded server, wall time — from the sources (the CLI under tsx), as `npm start` runs it in a clone | ≤ 20.0 s | 24.0 s | 24.0 s – 24.0 s (2) | **not met**: over by 4.0 s (20 %) |',
    );
    expect(table).toMatch(/10,000 held sync requests.*\| – \| – \| \*\*not measured\*\* \|/);
  });

  it('renders the planned-vs-actual table with the estimate error', () => {
    const markdown = renderMarkdown(quickReport());
    expect(markdown).toContain(
      '| Embedded full | credits (every run, both CLIs) | 90 | ≤ 299 | 81 (median of 4) | +11.1 % | **no** |',
    );
    // The estimate comes from a run made from the sources, so it is compared with those; the compiled runs' figure is said beside it.
    expect(markdown).toContain(
      '| Embedded full | wall time (the suite: first file to report), runs from the sources | 25 s | 440 min 30 s | 22 s (median of 2) | +13.6 % | **no** |',
    );
    expect(markdown).toContain(
      "The compiled runs' suite took 17.0 s (16.0–18.0 s); the estimate's error against their median would be +47.1 %.",
    );
    expect(markdown).toContain('- The embedded estimate assumed: the earlier run took 25 s.');
  });

  it("renders both CLIs' runs in the order they ran, each CLI's spread, and the sources-to-compiled ratio pair by pair", () => {
    const markdown = renderMarkdown(quickReport());
    const rows = markdown.split('\n').filter((l) => l.startsWith('| Embedded (full, test control) | real run'));
    expect(rows.map((l) => /real run (\d), (\w+)/.exec(l)?.slice(1).join(' '))).toEqual([
      '1 compiled',
      '1 sources',
      '2 compiled',
      '2 sources',
    ]);
    expect(markdown).toContain(
      '`node dist/cli/main.js run --profile full --seed 20261122 --report-dir <tmp>` — **19.0 s (18.0–20.0 s)** over 2 runs',
    );
    expect(markdown).toContain(
      '`node bin/tryon-conformance.js run --profile full --seed 20261122 --report-dir <tmp>` — **24.0 s** over 2 runs',
    );
    expect(markdown).toContain(
      "From the sources the run took 1.27× (1.20–1.33×) the compiled run's time, pair by pair (2 pairs that both exited 0).",
    );
  });

  it('says which runs collected the suite for their plan and which planned from the kept collection', () => {
    const report = quickReport();
    const embedded = report.conformance.embedded;
    if (hasError(embedded)) return expect.fail('the fixture has embedded runs');
    const runs = embedded.runs.map((r, i) => ({
      ...r,
      collection: i < 2 ? ('collected' as const) : ('kept' as const),
    }));
    const withCollection = { ...report, conformance: { ...report.conformance, embedded: { ...embedded, runs } } };
    expect(benchProblems(JSON.parse(JSON.stringify(withCollection)))).toEqual([]);
    const markdown = renderMarkdown(withCollection);
    expect(markdown).toContain(
      '| Embedded (full, test control) | real run 1, compiled, plan from a fresh collection: `',
    );
    expect(markdown).toContain(
      '| Embedded (full, test control) | real run 2, sources, plan from the kept collection: `',
    );
    expect(markdown).toContain('Compiled: collected 18 s; kept 20 s. Sources: collected 24 s; kept 24 s.');
    expect(renderMarkdown(quickReport())).not.toContain('kept by content');
  });

  it('renders a report of schema version 2 (bench/render.ts on an older bench.json): its runs as from the sources, the compiled CLI not measured', () => {
    const markdown = renderMarkdown(version2Report());
    expect(markdown).toContain(
      '| Full conformance run against the embedded server, wall time | ≤ 20.0 s | 24.0 s | 24.0 s – 24.0 s (1) | **not met**: over by 4.0 s (20 %) |',
    );
    expect(markdown).toContain(
      'real run 1, sources: `node bin/tryon-conformance.js run --profile full --seed 20261122 --report-dir <tmp>`',
    );
    expect(markdown).toContain('not measured: this bench.json (schema version 2) timed only the run from the sources');
    expect(markdown).toContain(
      '| Embedded full | wall time (the suite: first file to report), runs from the sources | 25 s | 440 min 30 s | 22 s | +13.6 % | **no** |',
    );
  });
});
