/**
 * A small bench.json of the shape a quick run writes (BENCH_QUICK=1, no remote run), with chosen
 * figures, for the unit tests of the schema, the goals and the Markdown. Not measured: made up.
 */
import type { EmbeddedRun } from './conformance-cost.ts';
import { cliRuns } from './embedded-runs.ts';
import { judgeGoals } from './goals.ts';
import type { BenchReport } from './report.ts';
import { benchSchemaPath } from './report.ts';
import { cellResult, endpoints, ratiosOf, type CellRun, type CellResult, type TargetName } from './side-by-side.ts';

/** req/s per target and round for GET /tryons/{id} at 10 connections; the other cells use the same. */
const perRound: Record<TargetName, number[]> = {
  reference: [8_000, 9_000, 10_000],
  floor: [10_000, 10_000, 10_000],
  'prism-silent': [1_000, 2_000, 1_000],
  prism: [400, 400, 500],
};

/** Server CPU µs per response. */
const cpuPerRequest: Record<TargetName, number> = { reference: 100, floor: 80, 'prism-silent': 900, prism: 2_000 };

function runs(target: TargetName, status: number): CellRun[] {
  return perRound[target].map((reqPerSec, round) => ({
    round,
    position: round % 2 === 0 ? Object.keys(perRound).indexOf(target) : 3 - Object.keys(perRound).indexOf(target),
    settleMs: 200,
    cpuUsPerRequest: cpuPerRequest[target],
    reqPerSec,
    p50Ms: target === 'prism' ? 20 : 0,
    p99Ms: 5,
    total: reqPerSec,
    statusCounts: { [String(status)]: reqPerSec },
    unexpected: 0,
    errors: 0,
    timeouts: 0,
  }));
}

/** One timed embedded run that passed (72 passed, 3 inconclusive). */
function embeddedRun(script: string, wallSeconds: number, reportDurationSeconds: number): EmbeddedRun {
  return {
    command: `${script} run --profile full --seed 20261122 --report-dir <tmp>`,
    wallSeconds,
    exitCode: 0,
    creditsSpent: 81,
    reportDurationSeconds,
    tests: { total: 75, passed: 72, failed: 0, inconclusive: 3, skipped: 0 },
  };
}

/**
 * The same report as bench.json of schema version 2 had it: the embedded runs by the sources
 * only, without `cli`, and the goals as judged then (one full-run row).
 */
export function version2Report(): BenchReport {
  const report = quickReport();
  const runs = [embeddedRun('node bin/tryon-conformance.js', 24, 22)];
  return {
    ...report,
    schemaVersion: 2,
    goals: report.goals
      .filter((g) => g.id !== 'full-run-wall-sources')
      .map((g) =>
        g.id === 'full-run-wall'
          ? {
              ...g,
              what: 'Full conformance run against the embedded server, wall time',
              measured: { n: 1, min: 24, median: 24, max: 24 },
              verdict: 'not met',
              margin: -4,
              marginPercent: -20,
            }
          : g,
      ),
    conformance: {
      ...report.conformance,
      embedded: {
        runs,
        wallSeconds: { n: 1, min: 24, median: 24, max: 24 },
        suiteSeconds: { n: 1, min: 22, median: 22, max: 22 },
      },
    },
  };
}

/** A quick-run report; `overrides` replace top-level parts. The goals are judged on the result. */
export function quickReport(overrides: Partial<BenchReport> = {}): BenchReport {
  const cells: CellResult[] = [];
  for (const endpoint of endpoints)
    for (const connections of [10, 100])
      for (const target of Object.keys(perRound) as TargetName[]) {
        const status = endpoint.startsWith('POST') ? (target.startsWith('prism') ? 422 : 403) : 200;
        cells.push(cellResult(endpoint, connections, target, status, runs(target, status)));
      }
  const embeddedRuns = [
    { cli: 'compiled' as const, ...embeddedRun('node dist/cli/main.js', 18, 16) },
    { cli: 'sources' as const, ...embeddedRun('node bin/tryon-conformance.js', 24, 22) },
    { cli: 'compiled' as const, ...embeddedRun('node dist/cli/main.js', 20, 18) },
    { cli: 'sources' as const, ...embeddedRun('node bin/tryon-conformance.js', 24, 22) },
  ];
  const base: BenchReport = {
    $schema: benchSchemaPath,
    schemaVersion: 3,
    startedAt: '2026-11-24T03:00:00.000Z',
    wallSeconds: 180,
    quick: true,
    code: { commit: 'abc1234', srcDirty: false },
    machine: {
      cpus: 2,
      cpuModel: 'Example CPU @ 2.0GHz',
      memoryGiB: 24,
      node: 'v20.20.2',
      platform: 'linux x64',
      openFiles: { soft: 20_000, hard: 20_000 },
      loadAverage: { start: [1, 1, 1], end: [2, 1.5, 1] },
    },
    versions: {
      node: 'v20.20.2',
      fastify: '5.12.8',
      autocannon: '9.0.0',
      prism: '5.14.2',
      betterSqlite3: '12.11.1',
      sharp: '0.35.5',
      libvips: '8.17.3',
      vitest: '4.1.12',
      tsx: '4.23.15',
    },
    goals: [],
    prism: {
      prism: { version: '5.14.2', node: 'v20.20.2', startupMs: 4_000, command: 'prism mock' },
      floor: {
        fastify: '5.12.8',
        description: 'bare fastify',
        bodies: endpoints.map((endpoint) => ({
          endpoint,
          status: endpoint.startsWith('POST') ? 403 : 200,
          bytes: 100,
          referenceHeaders: ['content-length', 'content-type', 'date'],
        })),
      },
      durationSeconds: 1,
      rounds: 3,
      goalCellRounds: 5,
      connections: [10, 100],
      order: ['reference', 'floor', 'prism-silent', 'prism'],
      cells,
      ratios: ratiosOf(cells),
      profile: { error: 'not profiled in the fixture' },
    },
    heldSync: {
      openFilesLimit: { soft: 20_000, hard: 20_000 },
      images: { person: '120×160 JPEG', garment: '100×100 JPEG' },
      levels: [{ connections: 200, mode: '202', ran: true, rssIdleMiB: 140, rssPeakMiB: 150, peakHeld: 200 }],
    },
    engine: { error: 'not measured in the fixture' },
    conformance: {
      embeddedPlan: {
        command: 'tryon-conformance run --plan --profile full',
        tests: 75,
        toRun: 75,
        credits: 299,
        creditsEstimate: 90,
        wallEstimateSeconds: 25,
        wallBoundSeconds: 26_430,
        estimateBasis: 'the earlier run took 25 s',
      },
      // Round 1 and 2 of each CLI, interleaved as the bench runs them: compiled, sources, compiled, sources.
      embedded: {
        runs: embeddedRuns,
        compiled: cliRuns(
          embeddedRuns,
          'compiled',
          'node dist/cli/main.js run --profile full --seed 20261122 --report-dir <tmp>',
        ),
        sources: cliRuns(
          embeddedRuns,
          'sources',
          'node bin/tryon-conformance.js run --profile full --seed 20261122 --report-dir <tmp>',
        ),
      },
      remotePlan: { command: 'tryon-conformance run --plan --profile quick', credits: 8 },
      remoteRun: {
        command: 'tsx tests/acceptance/run-without-control.ts',
        ran: false,
        note: 'left out (BENCH_SKIP_REMOTE=1)',
      },
    },
    ...overrides,
  };
  return { ...base, goals: judgeGoals(base) };
}
