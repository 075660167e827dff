/**
 * What a run cost against what its plan said: credits and wall time, the plan's
 * estimate (expected) and bound (at most) against what the run then did: report.json keeps the
 * estimate's error in percent, the printed rows say how many times the estimate the run took
 * ("took 2.8× the estimate"). report.md and report.html print the same rows.
 */

/** Credits and wall time, one figure each. */
export interface CostFigures {
  readonly credits: number;
  readonly wallSeconds: number;
}

/** What the plan said before anything was sent (src/run/plan.ts, src/run/estimate.ts). */
export interface PlannedCost {
  /** What the run is expected to take. */
  readonly estimate: CostFigures;
  /** What it may take at most: the credits granted up front and the wall-time bound (where the run stops). */
  readonly bound: CostFigures;
  /** What the estimate assumed, in a sentence (the generation latency, the poll interval, the profile). */
  readonly basis: string;
}

/** What the run did. */
export interface ActualCost {
  /** Credits the run spent as it counted them; null when it could not count them. */
  readonly credits: number | null;
  /**
   * How the credits were counted (GET /account balances, every start that could be charged, or the
   * reservations of a run with test control).
   */
  readonly creditsCounted: string;
  readonly wallSeconds: number;
}

export interface RunCost {
  readonly planned: PlannedCost;
  readonly actual: ActualCost;
  /** (estimate − actual) ÷ actual, in percent, one decimal; null where the actual is unknown or zero. */
  readonly errorPercent: { readonly credits: number | null; readonly wallSeconds: number | null };
}

/** The run's cost against its plan. */
export function runCost(planned: PlannedCost, actual: ActualCost): RunCost {
  return {
    planned,
    actual,
    errorPercent: {
      credits: actual.credits === null ? null : errorPercent(planned.estimate.credits, actual.credits),
      wallSeconds: errorPercent(planned.estimate.wallSeconds, actual.wallSeconds),
    },
  };
}

/**
 * (estimate − actual) ÷ actual in percent, one decimal: positive when the plan expected more. An
 * actual of zero gives 0 when the estimate was zero too, else null (no ratio to speak of).
 */
export function errorPercent(estimate: number, actual: number): number | null {
  if (actual === 0) return estimate === 0 ? 0 : null;
  return Math.round(((estimate - actual) / actual) * 1000) / 10;
}

/** "+4.2%", "−3%", "n/a": the sign of (estimate − actual), for report.json's readers. */
export function formatError(percent: number | null): string {
  if (percent === null) return 'n/a';
  const sign = percent > 0 ? '+' : percent < 0 ? '−' : '±';
  return `${sign}${Math.abs(percent)}%`;
}

/**
 * The actual against the estimate, as a person reads it: "took 2.8× the estimate", "spent 0.5× the
 * estimate", "as estimated" (within 5 %); `verb` says what the figure measures ("took", "spent").
 */
export function againstEstimate(estimate: number, actual: number | null, verb: string): string {
  if (actual === null) return 'n/a';
  if (estimate === 0) return actual === 0 ? 'as estimated' : `${verb} ${actual}, the estimate was 0`;
  const ratio = actual / estimate;
  if (Math.abs(ratio - 1) < 0.05) return 'as estimated';
  if (ratio < 0.1) return `${verb} under 0.1× the estimate`;
  return `${verb} ${ratio >= 10 ? Math.round(ratio) : Math.round(ratio * 10) / 10}× the estimate`;
}

/** 371 → "6 min 11 s"; 42 → "42 s". */
export function formatWallSeconds(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  return min < 60 ? `${min} min ${s % 60} s` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** The cost as rows (what, estimate, bound, actual, against the estimate), the same in report.md and report.html. */
export function costRows(cost: RunCost): Array<readonly [string, string, string, string, string]> {
  const { planned, actual } = cost;
  return [
    [
      'Credits',
      String(planned.estimate.credits),
      `at most ${planned.bound.credits}`,
      actual.credits === null ? 'not counted' : String(actual.credits),
      againstEstimate(planned.estimate.credits, actual.credits, 'spent'),
    ],
    [
      'Wall time',
      formatWallSeconds(planned.estimate.wallSeconds),
      `at most ${formatWallSeconds(planned.bound.wallSeconds)}`,
      formatWallSeconds(actual.wallSeconds),
      againstEstimate(planned.estimate.wallSeconds, actual.wallSeconds, 'took'),
    ],
  ];
}

/** A test as the report lists it, as far as a stop concerns it. */
interface TestLike {
  readonly name: string;
  readonly state: string;
  readonly skipReason?: string;
  readonly errors: readonly string[];
}

/** The words the suite ends a test with when the run stops under it (conformance.ts), and a test it never began. */
const stoppedMidWay = /the run stopped before this test finished/;
const neverRun = /^not run: the run was interrupted/;

/** The tests a stop (the wall-time bound, a signal) cut: those it stopped mid-way, and those it never ran. */
export function testsCut(tests: readonly TestLike[]): { readonly stopped: string[]; readonly notRun: string[] } {
  const stopped = tests.filter((t) => [t.skipReason ?? '', ...t.errors].some((text) => stoppedMidWay.test(text)));
  const notRun = tests.filter((t) => t.state === 'skipped' && neverRun.test(t.skipReason ?? ''));
  return { stopped: stopped.map((t) => t.name), notRun: notRun.map((t) => t.name) };
}

/** What a stopped run cut, in a sentence for report.md and report.html; nothing for a run that was not stopped. */
export function cutSentence(
  stop: { readonly reason: string } | undefined,
  tests: readonly TestLike[],
): string | undefined {
  if (stop === undefined) return undefined;
  const { stopped, notRun } = testsCut(tests);
  const plural = (n: number): string => `${n} test${n === 1 ? '' : 's'}`;
  const parts = [
    stopped.length > 0 && `${plural(stopped.length)} stopped mid-way (${stopped.join('; ')})`,
    notRun.length > 0 && `${plural(notRun.length)} not run (${notRun.join('; ')})`,
  ].filter((p): p is string => typeof p === 'string');
  return `The run stopped early (${stop.reason}): ${parts.length === 0 ? 'no test was cut' : parts.join('; ')}.`;
}
