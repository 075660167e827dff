/**
 * The acceptance goals of issue 15, judged on one benchmark run: each goal's measured median (with
 * its min and max), met or not, and by how much.
 */
import type { BenchReport } from './report.ts';
import type { EmbeddedCli } from './conformance-cost.ts';
import { embeddedRunsOf, runsOf } from './embedded-runs.ts';
import { hasError } from './report.ts';
import { proxyGoalInputs, type ProxyGoalId } from './proxy-goals.ts';
import { sandboxGoalInputs, type SandboxGoalId } from './sandbox-goals.ts';
import { goalCell } from './side-by-side.ts';
import { spread, type Spread } from './spread.ts';

export interface Goal {
  /** `full-run-wall` is the compiled CLI's run (as installed); `full-run-wall-sources` the same run from the sources (as `npm start`). */
  readonly id:
    | 'get-vs-floor'
    | 'get-vs-silent-prism'
    | 'held-sync-memory'
    | 'full-run-wall'
    | 'full-run-wall-sources'
    | ProxyGoalId
    | SandboxGoalId;
  readonly what: string;
  /** The goal as a comparison: measured median `comparator` target. */
  readonly comparator: '>=' | '<' | '<=';
  readonly target: number;
  readonly unit: '×' | 'MiB' | 's' | 'ms';
  readonly measured?: Spread;
  readonly verdict: 'met' | 'not met' | 'not measured';
  /** How far the median is from the target, in the goal's unit (positive: on the good side). */
  readonly margin?: number;
  /** The margin as a share of the target, in %. */
  readonly marginPercent?: number;
  /** Where the figure comes from, or why it is missing. */
  readonly note: string;
}

type Measured = { readonly measured?: Spread; readonly note: string };

function judge(base: Omit<Goal, 'measured' | 'verdict' | 'margin' | 'marginPercent' | 'note'>, m: Measured): Goal {
  if (!m.measured) return { ...base, verdict: 'not measured', note: m.note };
  const median = m.measured.median;
  const met =
    base.comparator === '>='
      ? median >= base.target
      : base.comparator === '<'
        ? median < base.target
        : median <= base.target;
  const margin = base.comparator === '>=' ? median - base.target : base.target - median;
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    ...base,
    measured: m.measured,
    verdict: met ? 'met' : 'not met',
    margin: r(margin),
    marginPercent: r((margin / base.target) * 100),
    note: m.note,
  };
}

function getRatio(report: BenchReport, versus: 'floor' | 'prism-silent'): Measured {
  if (hasError(report.prism)) return { note: `benchmark 1 failed: ${report.prism.error}` };
  const ratio = report.prism.ratios.find(
    (x) =>
      x.endpoint === goalCell.endpoint &&
      x.connections === goalCell.connections &&
      x.target === 'reference' &&
      x.versus === versus,
  );
  if (!ratio?.reqPerSec) return { note: 'no clean round of GET /tryons/{id} at 10 connections for both targets' };
  const cpu = ratio.cpuEfficiency
    ? `; by server CPU per response the same pair reads ${ratio.cpuEfficiency.median.toFixed(2)}× (${ratio.cpuEfficiency.min.toFixed(2)}–${ratio.cpuEfficiency.max.toFixed(2)}×)`
    : '';
  return {
    measured: ratio.reqPerSec,
    note: `req/s ratio per round, ${ratio.reqPerSec.n} rounds of ${report.prism.durationSeconds} s (benchmark 1)${cpu}`,
  };
}

function heldMemory(report: BenchReport): Measured {
  if (hasError(report.heldSync)) return { note: `benchmark 2 failed: ${report.heldSync.error}` };
  const ran = report.heldSync.levels.filter((l) => l.connections === 10_000 && l.ran && l.rssPeakMiB !== undefined);
  // A run whose ramp outlasted the hold never held all 10,000 at once: its peak is for fewer.
  const levels = ran.filter((l) => l.peakHeld === undefined || l.peakHeld >= l.connections);
  const partial = ran.length - levels.length;
  const measured = spread(
    levels.map((l) => l.rssPeakMiB as number),
    1,
  );
  const partialNote =
    partial > 0 ? `; ${partial} more run${partial === 1 ? '' : 's'} left out, as not all 10,000 were held at once` : '';
  if (!measured)
    return {
      note: report.quick ? 'a quick run holds no 10,000 requests' : `no run held 10,000 requests at once${partialNote}`,
    };
  return {
    measured,
    note: `peak RSS of the server process with 10,000 sync requests held, ${measured.n} run${measured.n === 1 ? '' : 's'} (benchmark 2)${partialNote}`,
  };
}

function fullRun(report: BenchReport, cli: EmbeddedCli): Measured {
  if (hasError(report.conformance.embedded))
    return { note: `the embedded run failed: ${report.conformance.embedded.error}` };
  const e = embeddedRunsOf(report.conformance.embedded);
  const own = runsOf(e, cli);
  const command = `\`${e[cli].command}\``;
  if (own.length === 0) return { note: `${command}: ${e[cli].note ?? 'not run'}` };
  const measured = spread(
    own.filter((r) => r.exitCode === 0).map((r) => r.wallSeconds),
    1,
  );
  if (!measured)
    return { note: `${command}: no run ended with exit 0 (${own.map((r) => `exit ${r.exitCode}`).join(', ')})` };
  return {
    measured,
    note: `${command} against the embedded server, spawn to exit, ${measured.n} run${measured.n === 1 ? '' : 's'} interleaved with the other CLI's (benchmark 4)`,
  };
}

/**
 * Judges the four acceptance goals of issue 15 on `report`. The full-run goal is judged on the
 * compiled CLI, as the installed package runs it (the basis of the server figures too); the run
 * from the sources gets a row of its own against the same target.
 */
export function judgeGoals(report: BenchReport): Goal[] {
  return [
    judge(
      {
        id: 'get-vs-floor',
        what: 'GET /tryons/{id} at 10 connections, reference ÷ bare fastify floor',
        comparator: '>=',
        target: 0.8,
        unit: '×',
      },
      getRatio(report, 'floor'),
    ),
    judge(
      {
        id: 'get-vs-silent-prism',
        what: 'GET /tryons/{id} at 10 connections, reference ÷ silent Prism',
        comparator: '>=',
        target: 5,
        unit: '×',
      },
      getRatio(report, 'prism-silent'),
    ),
    judge(
      {
        id: 'held-sync-memory',
        what: '10,000 held sync requests, peak RSS of the server',
        comparator: '<',
        target: 250,
        unit: 'MiB',
      },
      heldMemory(report),
    ),
    judge(
      {
        id: 'full-run-wall',
        what: 'Full conformance run against the embedded server, wall time — compiled CLI, as installed (`npx tryon-conformance run`)',
        comparator: '<=',
        target: 20,
        unit: 's',
      },
      fullRun(report, 'compiled'),
    ),
    judge(
      {
        id: 'full-run-wall-sources',
        what: 'Full conformance run against the embedded server, wall time — from the sources (the CLI under tsx), as `npm start` runs it in a clone',
        comparator: '<=',
        target: 20,
        unit: 's',
      },
      fullRun(report, 'sources'),
    ),
    ...proxyGoalInputs(report.proxy).map(([base, measured]) => judge(base, measured)),
    ...sandboxGoalInputs(report.sandbox).map(([base, measured]) => judge(base, measured)),
  ];
}
