/**
 * The expected cost of a run, next to the plan's bounds: the tests played in run order at the limits the
 * run paces by (the documented ones, or what `--limits` declares), each sending what it typically sends;
 * generation time and round trip are assumed and stated. With test control the limits are raised and
 * the target declares its timings (GET /_control/settings): the tests then cost what those timings and
 * the machine make them, spread over the run's workers (controlAssumptions).
 */
import {
  documentedLimits,
  rateWindowSeconds,
  type RateBucket as Bucket,
  type RateLimits,
} from '../contract/rate-limits.ts';
import type { Cost, TimedWait, Typical } from '../suite/cost.ts';

/** One test of the run, in run order, as the estimate sees it. */
export interface EstimatedTest {
  readonly name: string;
  /** Its file: vitest imports each file before its first test. */
  readonly file?: string;
  readonly cost: Cost;
  readonly typical?: Typical;
  /** Credits the plan holds for it (granted up front); 0 when it was not granted any. */
  readonly held: number;
}

export interface EstimateAssumptions {
  /** Seconds a try-on takes to generate on the target. */
  readonly generationSeconds: number;
  /** Seconds between polls of one try-on (the suite's pace: 2.5 s at the documented limits, the spec's "2-3 seconds"). */
  readonly pollIntervalSeconds: number;
  /** Seconds one request takes there and back. */
  readonly roundTripSeconds: number;
  /** Seconds of the target's timings a test may wait out (Typical `waits`). */
  readonly timedWaits: Readonly<Record<TimedWait, number>>;
  /** Seconds from the start of the run to its first test (vitest and its worker, the target's set-up). */
  readonly startupSeconds: number;
  /** Seconds vitest takes to import a file before its first test (about 9 s for 17 files on 2 busy cores). */
  readonly fileSeconds: number;
  /** The pacer's window and its safety margin (src/client/pacer.ts). */
  readonly windowSeconds: number;
  readonly marginSeconds: number;
  /** Requests per window the run paces each bucket by (Infinity: not paced). */
  readonly limits: RateLimits;
  /** Seconds each test takes besides its requests and waits (its own work and checks, on this machine). */
  readonly testSeconds: number;
  /** Workers that run files side by side (the embedded run's); the tests' time is shared among them. */
  readonly workers: number;
  /**
   * Whether tests wait out rate windows they fill (a Retry-After, an emptied starts window); with test
   * control they do not: each has fresh accounts, and the test clock moves instead.
   */
  readonly waitsOutWindows: boolean;
  /**
   * Whether tests wait for their try-ons to finish; a mock that answers every read with its example has
   * nothing to wait for, so each try-on is read once at most.
   */
  readonly waitsForTryons?: boolean;
}

/** Seconds a try-on is assumed to take on a remote target: the spec gives no typical figure (only that most results come within 30 s); `run --generation-seconds` sets it. */
export const defaultGenerationSeconds = 5;

/** The run against a remote target at the documented limits: what the suite's pacer and poll loop do (target.ts, pacer.ts). */
export const remoteAssumptions: EstimateAssumptions = {
  generationSeconds: defaultGenerationSeconds,
  pollIntervalSeconds: 2.5,
  roundTripSeconds: 0.1,
  // The spec's "about 55 seconds" and 12 s fetch deadline; a slow generation as the suite waits for it (target.ts).
  timedWaits: { 'sync-wait': 55, 'slow-generation': 90, 'fetch-deadline': 12 },
  startupSeconds: 5,
  fileSeconds: 0.5,
  windowSeconds: rateWindowSeconds,
  marginSeconds: 0.25,
  limits: documentedLimits,
  testSeconds: 0,
  workers: 1,
  waitsOutWindows: true,
};

/** What a target with test control declares of its timings (GET /_control/settings). */
export interface DeclaredTimings {
  readonly syncWaitMs: number;
  readonly generationLatencyMs: number;
  readonly slowGenerationMs: number;
  readonly fetchTimeoutMs?: number;
}

/**
 * A run with test control: each test on accounts of its own at raised limits (no pacing), try-ons that
 * take the declared generation latency, polled every 100 ms (target.ts), no rate window waited out (the
 * test clock moves instead), 3 ms a request on loopback, and each test's own work: about 0.15 s on a
 * quiet 2-core machine (fitted to the reference run, whose few longest tests wait out a declared timing).
 */
export function controlAssumptions(timings: DeclaredTimings, workers: number): EstimateAssumptions {
  return {
    ...remoteAssumptions,
    generationSeconds: timings.generationLatencyMs / 1000,
    timedWaits: {
      'sync-wait': timings.syncWaitMs / 1000,
      'slow-generation': timings.slowGenerationMs / 1000,
      'fetch-deadline': (timings.fetchTimeoutMs ?? 12_000) / 1000,
    },
    pollIntervalSeconds: 0.1,
    roundTripSeconds: 0.003,
    startupSeconds: 3,
    fileSeconds: 0.3,
    limits: { starts: Infinity, polls: Infinity, uploads: Infinity },
    testSeconds: 0.15,
    workers: Math.max(1, workers),
    waitsOutWindows: false,
  };
}

export interface RunEstimate {
  readonly credits: number;
  readonly wallSeconds: number;
  /** Tests the plan did not grant credits that the estimate expects to run on what is left at their turn. */
  readonly runOnLeftovers: readonly string[];
  /**
   * Each test played, with the second it is expected to start at (one worker's time), the seconds it is
   * expected to take (its file's loading included) and the credits it is expected to spend; tests
   * expected to skip are absent.
   */
  readonly steps: ReadonlyArray<EstimatedStep>;
}

export interface EstimatedStep {
  readonly name: string;
  readonly at: number;
  readonly seconds: number;
  readonly credits: number;
}

/**
 * Plays the run through at the documented limits: `tests` in run order (the ones that run), `budget`
 * the credit budget. Each test's requests take the pacer's next free slot in their bucket's window;
 * its try-ons take the generation latency, seen at the poll interval; then the next test begins.
 */
export function estimateRun(
  tests: readonly EstimatedTest[],
  budget: number,
  a: EstimateAssumptions = remoteAssumptions,
): RunEstimate {
  // Stryker disable next-line ArrayDeclaration: slot() drops anything that is not a time in the window
  const sent: Record<Bucket, number[]> = { starts: [], polls: [], uploads: [] };
  let now = a.startupSeconds;
  let spent = 0;
  let held = tests.reduce((n, t) => n + t.held, 0);
  const runOnLeftovers: string[] = [];
  const steps: EstimatedStep[] = [];
  /** The time the next request of `bucket` may go at, as the pacer decides it. */
  const slot = (bucket: Bucket, at: number): number => {
    const window = sent[bucket];
    const limit = a.limits[bucket];
    // Dropping what left the window only prunes: the slot is never before `at` either way.
    // Stryker disable next-line MethodExpression,ConditionalExpression,EqualityOperator
    const inWindow = window.filter((t) => t > at - a.windowSeconds - a.marginSeconds);
    return inWindow.length < limit
      ? at
      : Math.max(at, (inWindow[inWindow.length - limit] ?? at) + a.windowSeconds + a.marginSeconds);
  };
  const take = (bucket: Bucket, paced = true): void => {
    if (paced) now = slot(bucket, now);
    sent[bucket].push(now);
    now += a.roundTripSeconds;
  };
  let file: string | undefined;
  for (const test of tests) {
    const began = now;
    if (test.file !== undefined && test.file !== file) now += a.fileSeconds;
    file = test.file ?? file;
    held -= test.held;
    // conformance.ts: a test runs when its declared credits fit in what is left after the holds of the tests to come.
    if (test.cost.credits > budget - spent - held) continue;
    if (test.held === 0 && test.cost.credits > 0) runOnLeftovers.push(test.name);
    const typical = expected(test, a);
    const step = { name: test.name, at: Math.round(now * 10) / 10, credits: typical.credits };
    spent += typical.credits;
    now += a.testSeconds;
    for (let i = 0; i < typical.uploads; i++) take('uploads');
    const empties = typical.emptiesStartsWindow && a.waitsOutWindows;
    if (empties) now = Math.max(now, (sent.starts.at(-1) ?? -Infinity) + a.windowSeconds + a.marginSeconds);
    // A test that honours a Retry-After sends its starts unpaced, to draw the 429 whose wait it then keeps.
    const paced = !typical.emptiesStartsWindow && !(typical.waitsSeconds > 0 && a.waitsOutWindows);
    for (let i = 0; i < typical.starts; i++) take('starts', paced);
    // Each try-on waited for: polled at once, then each interval until generation has ended (api.ts `waitFinal`).
    now += typical.finishes * finishSeconds(a);
    const polls = a.waitsForTryons === false ? Math.min(typical.polls, typical.starts) : typical.polls;
    for (let i = 0; i < polls; i++) take('polls');
    now += (a.waitsOutWindows ? typical.waitsSeconds : 0) + typical.waits.reduce((n, w) => n + a.timedWaits[w], 0);
    steps.push({ ...step, seconds: Math.round((now - began) * 100) / 100 });
  }
  const wallSeconds = a.startupSeconds + (now - a.startupSeconds) / a.workers;
  return { credits: spent, wallSeconds: Math.round(wallSeconds), runOnLeftovers, steps };
}

/** What a test is expected to send and spend: its typical declaration, else its declared bounds. */
export function expected(test: EstimatedTest, a: EstimateAssumptions): Required<Typical> {
  const t = test.typical ?? {};
  const starts = t.starts ?? test.cost.starts;
  const finishes = t.finishes ?? 0;
  return {
    credits: Math.min(t.credits ?? test.cost.credits, test.cost.credits),
    starts,
    uploads: t.uploads ?? test.cost.uploads,
    finishes,
    // Polls beyond what waiting for its try-ons takes: the test's own reads.
    polls: t.polls ?? (finishes > 0 ? finishes * pollsPerFinish(a) : test.cost.polls),
    emptiesStartsWindow: t.emptiesStartsWindow ?? false,
    waitsSeconds: t.waitsSeconds ?? 0,
    waits: t.waits ?? [],
  };
}

/** Polls of one try-on: one at once, then one each interval until generation ends (api.ts `waitFinal`). */
export function pollsPerFinish(a: EstimateAssumptions): number {
  return 1 + Math.ceil(a.generationSeconds / a.pollIntervalSeconds);
}

/** Seconds waiting for one try-on takes: whole poll intervals until generation has ended. */
export function finishSeconds(a: EstimateAssumptions): number {
  return Math.max(1, Math.ceil(a.generationSeconds / a.pollIntervalSeconds)) * a.pollIntervalSeconds;
}
