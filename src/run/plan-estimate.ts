/**
 * The plan's estimate of a run (not a bound) and the wall-time bound over it: the tests played in run
 * order by estimate.ts, at the limits the run paces by or, with test control, at the timings the target
 * declares; where an earlier run of the same kind ran the same tests, what they took then (earlier-run.ts).
 */
import { documentedLimits } from '../contract/rate-limits.ts';
import type { Cost, Typical } from '../suite/cost.ts';
import type { Allotment } from './budget-order.ts';
import { estimateFromEarlierRuns, type EarlierRun } from './earlier-run.ts';
import {
  controlAssumptions,
  estimateRun,
  remoteAssumptions,
  type DeclaredTimings,
  type EstimateAssumptions,
} from './estimate.ts';

/** What the run is expected to take (not a bound), and what that assumed. */
export interface PlanEstimate {
  readonly credits: number;
  /** From the first test file to the report, as report.json's `durationMs` measures it (no plan, no preflight). */
  readonly wallSeconds: number;
  readonly basis: string;
}

/** What the estimate may go by besides the tests' declarations. */
export interface EstimateInputs {
  /** Earlier runs of the same kind, newest first (earlier-run.ts): what the same tests took there, on this machine. */
  readonly earlier?: readonly EarlierRun[];
  /** Seconds the target takes to make a try-on (`run --generation-seconds`); estimate.ts's default when absent. */
  readonly generationSeconds?: number;
  /** With test control: the timings the target declares (the embedded target's, or GET /_control/settings). */
  readonly timings?: DeclaredTimings;
  /** Workers running files side by side (the embedded run's); 1 when absent. */
  readonly workers?: number;
  /**
   * What showed, before the run, that the target answers every request with its example (example-mock.ts):
   * once a test learns it, the run paces nothing and waits for nothing.
   */
  readonly exampleMock?: string;
  /** The limits the user declared (`run --limits`): per bucket, or none; the documented ones when absent. */
  readonly limits?: Readonly<Partial<Record<'starts' | 'polls' | 'uploads', number>>> | 'none';
}

/** Set-up before the first test (preflight, accounts) and the report after the last, in the bound. */
export const setupAllowanceSeconds = 120;

/**
 * The wall-time bound over the estimate: three times it, and at least ten minutes more, so a slower
 * machine or target than the estimate knows is not cut short; never past the tests' time allowances.
 */
export function wallBoundOf(estimateSeconds: number, allowancesSeconds: number): number {
  const overEstimate = Math.max(3 * estimateSeconds, estimateSeconds + 600);
  return setupAllowanceSeconds + Math.ceil(Math.min(allowancesSeconds, overEstimate));
}

/** The limits the run paces by: the documented ones, with what the user declared in their place. */
export function pacedLimits(
  declared: EstimateInputs['limits'],
): Readonly<Record<'starts' | 'polls' | 'uploads', number>> {
  if (declared === 'none') return { starts: Infinity, polls: Infinity, uploads: Infinity };
  return { ...documentedLimits, ...declared };
}

/** A test as the estimate plays it: in run order, with what it declares. */
export interface PlayedTest {
  readonly name: string;
  readonly file: string;
  readonly cost: Cost;
  readonly typical?: Typical;
}

/**
 * The expected credits and wall time of `inRunOrder` (the tests that may run, in run order), with what
 * the plan grants up front.
 */
export function estimateOf(
  inRunOrder: readonly PlayedTest[],
  allotment: Allotment,
  budget: number,
  limitsRaised: boolean,
  inputs: EstimateInputs,
): PlanEstimate {
  const holds = new Map(allotment.granted.map((g) => [g.name, g.credits]));
  const a = assumptionsOf(limitsRaised, inputs);
  const mock = !limitsRaised && inputs.exampleMock !== undefined;
  const played = estimateRun(
    inRunOrder.map((t) => ({
      name: t.name,
      file: t.file,
      cost: t.cost,
      held: holds.get(t.name) ?? 0,
      ...(t.typical && { typical: t.typical }),
    })),
    // An example mock's balance never moves: every test the budget did not grant runs on what is left.
    mock ? Infinity : budget,
    a,
  );
  const mayAlsoRun = inRunOrder.map((t) => t.name);
  const earlier = inputs.earlier && estimateFromEarlierRuns(inputs.earlier, played.steps, mayAlsoRun);
  const leftovers =
    played.runOnLeftovers.length > 0
      ? ` (${played.runOnLeftovers.length} not granted up front expected to run on what is left)`
      : '';
  return {
    credits: mock ? 0 : played.credits,
    wallSeconds: earlier?.wallSeconds ?? played.wallSeconds,
    basis: `${earlier?.basis ?? modelBasis(a, limitsRaised, inputs)}${leftovers}`,
  };
}

/** How the run is played: at the limits it paces by, or with test control at the target's declared timings. */
function assumptionsOf(limitsRaised: boolean, inputs: EstimateInputs): EstimateAssumptions {
  const generation = inputs.generationSeconds !== undefined && { generationSeconds: inputs.generationSeconds };
  if (limitsRaised && inputs.timings !== undefined)
    return { ...controlAssumptions(inputs.timings, inputs.workers ?? 1), ...generation };
  if (limitsRaised) {
    // Test control whose timings the plan did not read (`--plan` sends nothing): the spec's figures.
    const spec = {
      syncWaitMs: 55_000,
      generationLatencyMs: remoteAssumptions.generationSeconds * 1000,
      slowGenerationMs: 90_000,
    };
    return { ...controlAssumptions(spec, inputs.workers ?? 1), ...generation };
  }
  if (inputs.exampleMock !== undefined) return exampleMockAssumptions;
  return { ...remoteAssumptions, limits: pacedLimits(inputs.limits), ...generation };
}

/**
 * A mock that answers every request with its example: no pacing, no try-on to wait for, no timing
 * waited out; a few milliseconds a request on loopback and a little work of each test's own.
 */
const exampleMockAssumptions: EstimateAssumptions = {
  ...remoteAssumptions,
  generationSeconds: 0,
  pollIntervalSeconds: 0.01,
  roundTripSeconds: 0.005,
  timedWaits: { 'sync-wait': 0, 'slow-generation': 0, 'fetch-deadline': 0 },
  startupSeconds: 2,
  fileSeconds: 0.05,
  limits: { starts: Infinity, polls: Infinity, uploads: Infinity },
  testSeconds: 0.03,
  waitsOutWindows: false,
  waitsForTryons: false,
};

/** What the model assumed, in words. */
function modelBasis(a: EstimateAssumptions, limitsRaised: boolean, inputs: EstimateInputs): string {
  const generation = `generation taking ${a.generationSeconds} s (${
    inputs.generationSeconds !== undefined
      ? 'as --generation-seconds says'
      : limitsRaised && inputs.timings !== undefined
        ? 'as the target declares'
        : 'the spec gives no typical figure, only that most results come within 30 s; --generation-seconds sets it'
  })`;
  if (!limitsRaised && inputs.exampleMock !== undefined) {
    return [
      `the target looks like a mock that answers every request with its example (${inputs.exampleMock})`,
      ': once a test learns that, the run paces nothing and waits for nothing, and its balance never moves',
      `, so every test that can runs at once, each try-on read once: ${a.roundTripSeconds * 1000} ms a request`,
      `, about ${a.testSeconds} s of each test's own work`,
    ].join('');
  }
  if (limitsRaised) {
    const declared = inputs.timings !== undefined ? 'the timings the target declares' : 'the spec timings';
    return [
      `with test control, each test's typical requests at raised limits and ${declared}: ${generation}`,
      `, a sync wait of ${a.timedWaits['sync-wait']} s, a slow generation of ${a.timedWaits['slow-generation']} s`,
      `, polls every ${a.pollIntervalSeconds} s, about ${a.testSeconds} s of each test's own work`,
      `, no rate window waited out, ${a.workers} worker${a.workers === 1 ? '' : 's'} side by side`,
      '; no earlier run of these tests on this machine to go by',
    ].join('');
  }
  const limits =
    inputs.limits === 'none'
      ? 'unpaced (--limits none)'
      : inputs.limits !== undefined
        ? 'through the declared limits (--limits)'
        : 'through the documented limits';
  return [
    `each test's typical requests ${limits}, in run order; ${generation}, polls every ${a.pollIntervalSeconds} s`,
    `, ${a.roundTripSeconds * 1000} ms a request, ${a.fileSeconds} s to load a file`,
    "; the budget left at each test's turn decides whether it runs",
  ].join('');
}
