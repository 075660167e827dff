/**
 * Benchmark 1's figures from its runs: per target and cell the min/median/max of req/s and latency
 * over the interleaved rounds, and per pair of targets the ratio of their req/s taken round by round
 * (side by side, so drift of the shared machine hits both alike) and then its min/median/max.
 */
import { pairedRatios, spread, type Spread } from './spread.ts';

export type TargetName = 'reference' | 'floor' | 'prism' | 'prism-silent';
export type EndpointName = 'GET /tryons/{id}' | 'POST /tryons (consent false)' | 'GET /account';

export const endpoints: readonly EndpointName[] = ['GET /tryons/{id}', 'POST /tryons (consent false)', 'GET /account'];

/** The cell the GET goals of issue 15 are judged on (bench/goals.ts). */
export const goalCell = { endpoint: 'GET /tryons/{id}', connections: 10 } as const satisfies {
  endpoint: EndpointName;
  connections: number;
};

/**
 * How many rounds the cell `endpoint` × `connections` runs: `rounds`, and in the goal's cell
 * `goalCellRounds` when that is more (a median of more rounds judges the 0.8× line more steadily).
 */
export function roundsOf(
  options: { readonly rounds: number; readonly goalCellRounds?: number },
  endpoint: EndpointName,
  connections: number,
): number {
  const goal = endpoint === goalCell.endpoint && connections === goalCell.connections;
  return goal ? Math.max(options.rounds, options.goalCellRounds ?? 0) : options.rounds;
}

/** One autocannon run of one target in one cell. */
export interface CellRun {
  /** The round (0-based) and the place in that round's order (0-based). */
  readonly round: number;
  readonly position: number;
  /** How long the run waited for every target's process to be quiet first (bench/quiet.ts), ms. */
  readonly settleMs: number;
  /**
   * CPU time (user + system) the target's server process used during the run, per response, in µs
   * (Linux /proc, 10 ms ticks); less sensitive to the shared machine's load than req/s.
   */
  readonly cpuUsPerRequest?: number;
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly total: number;
  readonly statusCounts: Record<string, number>;
  /** Responses other than the expected status. */
  readonly unexpected: number;
  readonly errors: number;
  readonly timeouts: number;
}

export interface CellResult {
  readonly endpoint: EndpointName;
  readonly connections: number;
  readonly target: TargetName;
  readonly expectedStatus: number;
  /** Over the rounds; undefined (left out) when no run gave a finite figure. */
  readonly reqPerSec?: Spread;
  readonly p50Ms?: Spread;
  readonly p99Ms?: Spread;
  readonly cpuUsPerRequest?: Spread;
  /** Over all runs. */
  readonly unexpected: number;
  readonly errors: number;
  readonly statusCounts: Record<string, number>;
  readonly runs: readonly CellRun[];
}

export interface RatioResult {
  readonly endpoint: EndpointName;
  readonly connections: number;
  readonly target: TargetName;
  readonly versus: TargetName;
  /** target req/s ÷ versus req/s in each round, in round order. */
  readonly perRound: readonly number[];
  readonly reqPerSec?: Spread;
  /** versus CPU µs per response ÷ target CPU µs per response, per round: the same ratio measured by server CPU instead of throughput. */
  readonly cpuPerRound?: readonly number[];
  readonly cpuEfficiency?: Spread;
}

/** The pairs reported: every server against the floor, and the reference server against both Prisms too. */
export const ratioPairs: readonly (readonly [TargetName, TargetName])[] = [
  ['reference', 'floor'],
  ['reference', 'prism-silent'],
  ['reference', 'prism'],
  ['prism-silent', 'floor'],
  ['prism', 'floor'],
];

/** The cell's figures for one target from its runs (one per round, in round order). */
export function cellResult(
  endpoint: EndpointName,
  connections: number,
  target: TargetName,
  expectedStatus: number,
  runs: readonly CellRun[],
): CellResult {
  const statusCounts: Record<string, number> = {};
  for (const run of runs)
    for (const [code, n] of Object.entries(run.statusCounts)) statusCounts[code] = (statusCounts[code] ?? 0) + n;
  const reqPerSec = spread(
    runs.map((r) => r.reqPerSec),
    0,
  );
  const p50Ms = spread(
    runs.map((r) => r.p50Ms),
    1,
  );
  const p99Ms = spread(
    runs.map((r) => r.p99Ms),
    1,
  );
  const cpuUsPerRequest = spread(
    runs.map((r) => r.cpuUsPerRequest ?? Number.NaN),
    1,
  );
  return {
    endpoint,
    connections,
    target,
    expectedStatus,
    ...(reqPerSec && { reqPerSec }),
    ...(p50Ms && { p50Ms }),
    ...(p99Ms && { p99Ms }),
    ...(cpuUsPerRequest && { cpuUsPerRequest }),
    unexpected: runs.reduce((s, r) => s + r.unexpected, 0),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    statusCounts,
    runs,
  };
}

/**
 * The ratios of `ratioPairs` for every cell present in `cells`. A round whose run of either target
 * answered anything but its expected status is left out of that pair's ratios: a run of 401s or
 * 429s is no figure of speed.
 */
export function ratiosOf(cells: readonly CellResult[]): RatioResult[] {
  const out: RatioResult[] = [];
  const seen = new Set<string>();
  for (const cell of cells) {
    const key = `${cell.endpoint}|${cell.connections}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const [target, versus] of ratioPairs) {
      const a = cells.find(
        (c) => c.endpoint === cell.endpoint && c.connections === cell.connections && c.target === target,
      );
      const b = cells.find(
        (c) => c.endpoint === cell.endpoint && c.connections === cell.connections && c.target === versus,
      );
      if (!a || !b) continue;
      const rounds = Math.max(0, ...a.runs.map((r) => r.round + 1), ...b.runs.map((r) => r.round + 1));
      const clean = (c: CellResult, round: number) => {
        const run = c.runs.find((r) => r.round === round);
        return run && run.unexpected === 0 && run.errors === 0 ? run.reqPerSec : Number.NaN;
      };
      const xs = Array.from({ length: rounds }, (_, i) => clean(a, i));
      const ys = Array.from({ length: rounds }, (_, i) => clean(b, i));
      const perRound = pairedRatios(xs, ys).map((x) => Math.round(x * 1000) / 1000);
      const reqPerSec = spread(perRound, 2);
      const cpu = (c: CellResult, round: number) => {
        const run = c.runs.find((r) => r.round === round);
        return run && run.unexpected === 0 && run.errors === 0 ? (run.cpuUsPerRequest ?? Number.NaN) : Number.NaN;
      };
      const cpuPerRound = pairedRatios(
        Array.from({ length: rounds }, (_, i) => cpu(b, i)),
        Array.from({ length: rounds }, (_, i) => cpu(a, i)),
      ).map((x) => Math.round(x * 1000) / 1000);
      const cpuEfficiency = spread(cpuPerRound, 2);
      out.push({
        endpoint: cell.endpoint,
        connections: cell.connections,
        target,
        versus,
        perRound,
        ...(reqPerSec && { reqPerSec }),
        ...(cpuPerRound.length > 0 && { cpuPerRound }),
        ...(cpuEfficiency && { cpuEfficiency }),
      });
    }
  }
  return out;
}
