/**
 * The report's data: one verdict per requirement, the tests behind it and their evidence. Types
 * and constants only; `model.ts` builds a value of them and every writer renders it.
 */
import type { TaskMeta } from 'vitest';
import type { Level } from '../contract/requirements.ts';
import type { Profile } from '../suite/config.ts';
import type { LearnedFact } from '../suite/run-facts.ts';
import type { RequestCounts } from '../suite/requests-counted.ts';
import type { Cost } from '../suite/cost.ts';
import type { PlannedCost, RunCost } from './cost.ts';
import type { ExpectationResult, ExpectationsReport } from './expectation-types.ts';

export type Verdict = 'pass' | 'fail' | 'inconclusive' | 'skip' | 'not-observable' | 'not-covered';

/** Every verdict, worst first: the order of summaries, filters and legends. */
export const verdicts: readonly Verdict[] = ['fail', 'pass', 'inconclusive', 'skip', 'not-observable', 'not-covered'];

export const levels: readonly Level[] = ['MUST', 'SHOULD', 'MAY'];

/**
 * The report.json format version; bump it with any incompatible change of report.schema.json.
 * 2: the `inconclusive` verdict and count, the `error` outcome, `choices`.
 */
export const reportSchemaVersion = 2;

/** The versions `readReport` reads: a version 1 report comes back with no choices and no inconclusive counts. */
export type ReadableSchemaVersion = 1 | typeof reportSchemaVersion;

export interface Evidence {
  readonly curl: string;
  readonly status: number | null;
  readonly body: string;
}

export interface Replay {
  readonly seed: number;
  /** fast-check path of the shrunk counterexample, when the failure came from a property. */
  readonly path?: string;
  /** The command that replays the failing test against the same target. */
  readonly command: string;
}

export interface Failure {
  readonly test: string;
  /** What went wrong, in one line or a few. */
  readonly message: string;
  /** What the spec documents (a finding's "Documented", an assertion's expected value). */
  readonly expected?: string;
  /** What the target did (a finding's "Received", an assertion's actual value). */
  readonly received?: string;
  /** The per-exchange check that raised it, for findings. */
  readonly check?: string;
  /** How many exchanges raised the same finding. */
  readonly occurrences?: number;
  /** fast-check's report of the shrunk counterexample (with its seed and path). */
  readonly counterexample?: string;
  readonly replay: Replay;
  /** The last exchanges of the test, oldest first (the failing one is usually last). */
  readonly evidence: readonly Evidence[];
  /** Earlier exchanges of the test that are left out of `evidence`. */
  readonly evidenceOmitted?: number;
}

export interface Observation {
  readonly test: string;
  /** The annotation's type (`notice`, `observed`, …), or `warning` for a warning finding. */
  readonly type: string;
  readonly message: string;
}

export interface RequirementResult {
  readonly id: string;
  readonly level: Level;
  readonly section: string;
  readonly subsection?: string;
  readonly statement: string;
  readonly implementationDefined?: true;
  readonly verdict: Verdict;
  /** Why a requirement was skipped, cannot be observed, or is not covered. */
  readonly reason?: string;
  /** Full names of the tests that cover it, and of tests whose error findings name it. */
  readonly tests: readonly string[];
  readonly observations: readonly Observation[];
  readonly failures: readonly Failure[];
  /** The spec's alternatives (JPEG or PNG, URL or id, …) its checks met, per dimension (report/alternatives.ts). */
  readonly alternatives?: readonly DimensionSeen[];
  /**
   * `partial` on a pass whose checks met only some of a dimension's alternatives; the verdict and exit
   * status are unchanged.
   */
  readonly coverage?: 'partial';
  /** The entry of the run's expectations file (`--expect`) that names it; a failure it names is expected. */
  readonly expected?: ExpectationResult;
}

export type TestState = 'passed' | 'failed' | 'skipped';

export interface TestEntry {
  readonly name: string;
  readonly file: string;
  /** vitest's state of the test. */
  readonly state: TestState;
  /**
   * What the test says as a whole (verdict.ts `testOutcome`): `inconclusive` for a failed test that
   * failed none of its requirements (a precondition, our timeout). Absent in version 1 reports.
   */
  readonly outcome?: TestOutcome;
  readonly durationMs: number;
  readonly requirements: readonly string[];
  readonly skipReason?: string;
  readonly errors: readonly string[];
  readonly findings: { readonly errors: number; readonly warnings: number };
  readonly cost?: Cost;
}

export interface Counts {
  readonly total: number;
  readonly pass: number;
  readonly fail: number;
  readonly inconclusive: number;
  readonly skip: number;
  readonly notObservable: number;
  readonly notCovered: number;
}

export interface Summary {
  /**
   * `error` when the run had errors of its own (files that did not load, unhandled errors), or
   * judged nothing because every test that ran was inconclusive (exit 2 of `run`); else `fail` when a
   * MUST requirement that is not implementation-defined failed, or a test without requirements failed
   * (exit 1); else `pass`.
   */
  readonly outcome: 'pass' | 'fail' | 'error';
  /** pass ÷ (pass + fail) over the requirements the run exercised; null when it exercised none. */
  readonly passRate: number | null;
  readonly requirements: Counts;
  readonly byLevel: Readonly<Record<Level, Counts>>;
  /**
   * Tests by what each says as a whole: `failed` failed a requirement; `inconclusive` stopped without
   * failing one (absent in version 1, where `failed` counted both).
   */
  readonly tests: {
    readonly total: number;
    readonly passed: number;
    readonly failed: number;
    readonly inconclusive: number;
    readonly skipped: number;
  };
  readonly errors: number;
}

export interface RunError {
  readonly file?: string;
  readonly message: string;
}

export interface Report {
  readonly schemaVersion: ReadableSchemaVersion;
  readonly tool: { readonly name: string; readonly version: string };
  readonly target: { readonly baseUrl: string; readonly embedded: boolean };
  readonly openapiSha256: string;
  readonly seed: number;
  readonly path?: string;
  readonly grep?: string;
  readonly profile: Profile;
  /** Each capability, offered (`true`) or the reason it is not. */
  readonly capabilities: Readonly<Record<string, true | string>>;
  readonly startedAt: string;
  readonly durationMs: number;
  /** Set when the run was stopped before its end: its verdicts are those of the tests that ran. */
  readonly interrupted?: Interrupted;
  readonly summary: Summary;
  /** In catalogue order, which is the order of the spec. */
  readonly requirements: readonly RequirementResult[];
  readonly tests: readonly TestEntry[];
  /** Files that failed to load, and errors outside any test. */
  readonly errors: readonly RunError[];
  /** What the target chose on each point the spec leaves open, as seen in this run. */
  readonly choices: readonly ChoiceResult[];
  /** Credits and wall time, planned (estimate and bound) against actual (cost.ts); absent when the run had no plan. */
  readonly cost?: RunCost;
  /** The known failures the run was given (`--expect FILE`), each with what became of it. */
  readonly expectations?: ExpectationsReport;
  /** What the run learned about its target and later tests read (suite/run-facts.ts); absent when nothing. */
  readonly learned?: readonly LearnedFact[];
  /** The requests the run sent against each rate limit and the 429s among them (requests-counted.ts). */
  readonly requestCounts?: RequestCounts;
  /** Where the verdicts come from: the run's own requests (absent: a run), or traffic judged passively. */
  readonly source?: 'run' | 'traffic';
  /** For a report of traffic: what was judged and what was let go (src/traffic/). */
  readonly traffic?: TrafficSummary;
  /** For a report of traffic: the client grade of the same traffic, the report's second half (src/grade/). */
  readonly clientGrade?: Readonly<Record<string, unknown>>;
}

/** What a report of traffic judged. */
export interface TrafficSummary {
  readonly exchanges: number;
  /** State let go past the judge's caps (accounts, try-ons, keys): what it held no longer judges anything. */
  readonly notKept: number;
  /** Records of a recording that could not be read (over a bound, or malformed). */
  readonly unreadRecords?: number;
  readonly firstAt?: string;
  readonly lastAt?: string;
}

/** Why and when a run was stopped before its end. */
export interface Interrupted {
  /** `SIGINT` or `SIGTERM`; absent when the run's wall-time bound stopped it. */
  readonly signal?: string;
  readonly reason: string;
  readonly at: string;
}

/** One implementation-defined point and what the target was seen to do on it. */
export interface ChoiceResult {
  /** The openapi.yaml `x-point` name where there is one, else the suite's short kebab-case name. */
  readonly point: string;
  /**
   * The requirement the point belongs to: as the test named it, else the catalogue's requirement with
   * that `xPoint`.
   */
  readonly requirement?: string;
  /** openapi.yaml's `x-reference-server` for the point: what our reference server does (an example, not binding). */
  readonly referenceServer?: string;
  /** openapi.yaml's `x-conformance` for the point: what a verdict accepts from any target. */
  readonly conformance?: string;
  /** Each distinct value seen, with how often and in which tests. */
  readonly values: ReadonlyArray<{ readonly value: string; readonly count: number; readonly tests: readonly string[] }>;
}

/** What the run knows beyond its test modules. */
export interface RunInfo {
  readonly tool: { readonly name: string; readonly version: string };
  readonly target: { readonly baseUrl: string; readonly embedded: boolean };
  readonly openapiSha256: string;
  readonly seed: number;
  readonly path?: string;
  readonly grep?: string;
  readonly profile: Profile;
  readonly capabilities: ReadonlyMap<string, true | string> | Readonly<Record<string, true | string>>;
  readonly startedAt: Date | string;
  readonly durationMs: number;
  /** vitest's unhandled errors (`vitest.state.getUnhandledErrors()`). */
  readonly unhandledErrors?: ReadonlyArray<{ readonly message: string }>;
  /** The run was stopped before its end (Ctrl-C, SIGTERM, the wall-time bound). */
  readonly interrupted?: { readonly signal?: string; readonly reason: string; readonly at: Date | string };
  /** What the plan said the run would cost (estimate and bound), for the report's planned against actual. */
  readonly plannedCost?: PlannedCost;
}

// ---- The part of vitest's reported tasks the report reads. `TestModule` satisfies it; tests feed fakes. ----

export interface ErrorLike {
  readonly message: string;
  readonly name?: string | undefined;
  readonly expected?: string | undefined;
  readonly actual?: string | undefined;
  /** vitest keeps an error's `cause`: a failed property's assertion when the suite passes it on. */
  readonly cause?: unknown;
}

export interface TestResultLike {
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending';
  readonly errors?: ReadonlyArray<ErrorLike> | undefined;
  /** The note given to `ctx.skip(note)`. */
  readonly note?: string | undefined;
}

export interface TestCaseLike {
  readonly name: string;
  readonly fullName: string;
  meta(): TaskMeta;
  result(): TestResultLike;
  annotations(): ReadonlyArray<{ readonly message: string; readonly type: string }>;
  diagnostic(): { readonly duration: number } | undefined;
}

export interface TestModuleLike {
  /** The file, relative to the project root. */
  readonly relativeModuleId: string;
  state(): string;
  errors(): ReadonlyArray<ErrorLike>;
  readonly children: { allTests(): Iterable<TestCaseLike> };
}

/** One dimension of a requirement: how often each alternative was met, and those never met. */
export interface DimensionSeen {
  readonly dimension: string;
  /** In the spec's order; only alternatives met at least once. */
  readonly seen: ReadonlyArray<{ readonly alternative: string; readonly count: number }>;
  /** The spec's alternatives no check of this requirement met. */
  readonly unseen: readonly string[];
}

/** What one test says of one requirement it covers (or names in an error finding). */
export type TestOutcome = 'fail' | 'pass' | 'inconclusive' | 'skip';

/** One test of the run, as the verdicts read it. */
export interface Ran {
  readonly test: TestCaseLike;
  readonly entry: TestEntry;
  readonly meta: TaskMeta;
  readonly errors: readonly ErrorLike[];
}
