/**
 * The report data model (report issue, "The `run` command and the published conformance report"):
 * one verdict per requirement of the catalogue, traced to the tests that cover it, with the
 * evidence of every failure. Built from vitest's test modules after a run; every writer (JSON,
 * JUnit, Markdown, HTML) renders this one value, and `report.schema.json` describes its JSON form.
 */
import type { TaskMeta } from 'vitest';
import { implementationDefinedPoints, type ImplementationDefinedPoint } from '../contract/openapi.ts';
import { allRequirements, type Level, type Requirement } from '../contract/requirements.ts';
import type { Profile } from '../suite/config.ts';
import type { Cost } from '../suite/conformance.ts';
import { alternativesSeen, withAlternatives, type DimensionSeen } from './alternatives.ts';
import { runCost, type PlannedCost, type RunCost } from './cost.ts';
import { clip } from './failures.ts';
import { summarise } from './summary.ts';
import { judge, testOutcome, type Ran, type TestOutcome } from './verdict.ts';

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
  /** `partial` on a pass whose checks met only some of a dimension's alternatives; the verdict and exit status are unchanged. */
  readonly coverage?: 'partial';
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
   * judged nothing because every test that ran was inconclusive (exit 2 of `run`); else `fail` when a MUST requirement that is not implementation-defined failed, or a test
   * without requirements failed (exit 1); else `pass`.
   */
  readonly outcome: 'pass' | 'fail' | 'error';
  /** pass ÷ (pass + fail) over the requirements the run exercised; null when it exercised none. */
  readonly passRate: number | null;
  readonly requirements: Counts;
  readonly byLevel: Readonly<Record<Level, Counts>>;
  /** Tests by what each says as a whole: `failed` failed a requirement; `inconclusive` stopped without failing one (absent in version 1, where `failed` counted both). */
  readonly tests: { readonly total: number; readonly passed: number; readonly failed: number; readonly inconclusive: number; readonly skipped: number };
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
  /** The requirement the point belongs to: as the test named it, else the catalogue's requirement with that `xPoint`. */
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

/**
 * Builds the report of a run: a verdict for every requirement of `catalogue` (fail if a covering
 * test failed or an error finding names it; pass if a covering test passed and sent the target
 * something (one that sent nothing makes it not-observable); skip if all covering tests skipped;
 * else not-observable with the catalogue's reason, or not-covered; the rules are in `verdict.ts`).
 */
export function buildReport(modules: readonly TestModuleLike[], info: RunInfo, catalogue: readonly Requirement[] = allRequirements()): Report {
  const ran: Ran[] = [];
  const errors: RunError[] = [];
  for (const module of modules) {
    const tests = [...module.children.allTests()];
    for (const error of module.errors()) errors.push({ file: module.relativeModuleId, message: error.message });
    if (module.state() === 'failed' && tests.length === 0 && module.errors().length === 0) {
      errors.push({ file: module.relativeModuleId, message: 'the file failed before any of its tests ran' });
    }
    for (const test of tests) ran.push(describeTest(test, module.relativeModuleId, info.grep));
  }
  for (const error of info.unhandledErrors ?? []) errors.push({ message: error.message });

  const target = { baseUrl: publicUrl(info.target.baseUrl), embedded: info.target.embedded };
  const interrupted = info.interrupted && {
    ...(info.interrupted.signal !== undefined && { signal: info.interrupted.signal }),
    reason: info.interrupted.reason,
    at: typeof info.interrupted.at === 'string' ? info.interrupted.at : info.interrupted.at.toISOString(),
  };
  const seen = alternativesSeen(ran);
  const requirements = catalogue.map((req) => withAlternatives(notRunIfInterrupted(judge(req, ran, { seed: info.seed, target }), interrupted), seen.get(req.id)));
  const tests = ran.map((r) => r.entry);
  return {
    schemaVersion: reportSchemaVersion,
    tool: { name: info.tool.name, version: info.tool.version },
    target,
    openapiSha256: info.openapiSha256,
    seed: info.seed,
    ...(info.path !== undefined && { path: info.path }),
    ...(info.grep !== undefined && { grep: info.grep }),
    profile: info.profile,
    capabilities: Object.fromEntries(info.capabilities instanceof Map ? info.capabilities : Object.entries(info.capabilities)),
    startedAt: typeof info.startedAt === 'string' ? info.startedAt : info.startedAt.toISOString(),
    durationMs: Math.round(info.durationMs),
    ...(interrupted && { interrupted }),
    summary: summarise(requirements, tests, errors.length),
    requirements,
    tests,
    errors,
    choices: choicesOf(ran, catalogue),
    ...(info.plannedCost && { cost: costOf(info.plannedCost, ran, info) }),
  };
}

/**
 * The run's cost against its plan. Credits: what the worker's budget said once the last test settled
 * (`meta.creditsUsed`); without test control that is what GET /account balances say the run spent, or
 * every start that could be charged where no balance is read. With test control every test spends
 * from accounts of its own and its reservations stand, so nothing the user pays for is counted.
 */
function costOf(planned: PlannedCost, ran: readonly Ran[], info: RunInfo): RunCost {
  const used = Math.max(0, ...ran.map((r) => r.meta.creditsUsed ?? 0));
  const capabilities = info.capabilities instanceof Map ? info.capabilities : new Map(Object.entries(info.capabilities));
  const control = capabilities.get('test-control') === true;
  return runCost(planned, {
    credits: control ? null : used,
    creditsCounted: control
      ? 'not counted: with test control each test spends from accounts of its own, not the user’s'
      : 'as the run counted them: GET /account balances where the run reads them, else every start that could be charged',
    wallSeconds: Math.round(info.durationMs / 100) / 10,
  });
}

/**
 * The choices of every test, one entry per point (sorted by name), each value counted once per
 * `t.choose` call, with openapi.yaml's text for the point where it has an `x-point` of that name.
 */
export function choicesOf(ran: readonly Ran[], catalogue: readonly Requirement[] = allRequirements(), documented: readonly ImplementationDefinedPoint[] = implementationDefinedPoints()): ChoiceResult[] {
  type Point = { requirement?: string | undefined; values: Map<string, { count: number; tests: Set<string> }> };
  const points = new Map<string, Point>();
  for (const r of ran) {
    for (const c of r.meta.choices ?? []) {
      const point: Point = points.get(c.point) ?? { values: new Map() };
      const owners = catalogue.filter((q) => q.xPoint === c.point);
      point.requirement ??= c.requirement ?? (owners.find((q) => q.implementationDefined === true) ?? owners[0])?.id;
      points.set(c.point, point);
      const value = point.values.get(c.value) ?? { count: 0, tests: new Set<string>() };
      point.values.set(c.value, value);
      value.count += 1;
      value.tests.add(r.entry.name);
    }
  }
  return [...points]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([point, p]) => ({
      point,
      ...(p.requirement !== undefined && { requirement: p.requirement }),
      ...textOf(documented.find((d) => d.point === point)),
      values: [...p.values].sort((a, b) => b[1].count - a[1].count).map(([value, v]) => ({ value, count: v.count, tests: [...v.tests] })),
    }));
}

function textOf(d: ImplementationDefinedPoint | undefined): Pick<ChoiceResult, 'referenceServer' | 'conformance'> {
  if (d === undefined) return {};
  return { ...(d.referenceServer !== undefined && { referenceServer: d.referenceServer }), ...(d.conformance !== undefined && { conformance: d.conformance }) };
}

function describeTest(test: TestCaseLike, file: string, grep: string | undefined): Ran {
  const meta = test.meta();
  const result = test.result();
  const state: TestState = result.state === 'passed' || result.state === 'failed' ? result.state : 'skipped';
  const errors = result.errors ?? [];
  const findings = meta.findings ?? [];
  const entry: TestEntry = {
    name: test.fullName,
    file,
    state,
    durationMs: Math.round(test.diagnostic()?.duration ?? 0),
    requirements: [...(meta.requirements ?? [])],
    ...(state === 'skipped' && { skipReason: skipReasonOf(meta, result, grep) }),
    errors: state === 'failed' ? errors.map((e) => clip(e.message)) : [],
    findings: { errors: findings.filter((f) => f.severity === 'error').length, warnings: findings.filter((f) => f.severity === 'warning').length },
    ...(meta.cost !== undefined && { cost: meta.cost }),
  };
  return { test, entry: { ...entry, outcome: testOutcome({ entry, meta, errors }).outcome }, meta, errors };
}

/** The note vitest gives the tests of a cancelled run (`cancelCurrentRun`) that did not run. */
const cancelledNote = 'The test run was aborted by the user.';

function skipReasonOf(meta: TaskMeta, result: TestResultLike, grep: string | undefined): string {
  if (meta.skipReason !== undefined) return meta.skipReason;
  // vitest's note on the tests of a cancelled run that had not finished: the one it cut short says why (its `inconclusive`).
  if (result.note === cancelledNote) return meta.inconclusive ?? 'not run: the run was interrupted';
  if (result.note !== undefined && result.note !== '') return result.note;
  if (result.state === 'pending') return 'not run: the run was interrupted';
  return grep === undefined ? 'not run (marked skip or todo)' : `not selected by --grep ${JSON.stringify(grep)}`;
}

/**
 * In an interrupted run, a requirement no test that ran covers was not reached: its tests may be in
 * the files that never started, so it is a skip ("not run"), never "no test covers it".
 */
function notRunIfInterrupted(result: RequirementResult, interrupted: Interrupted | undefined): RequirementResult {
  if (interrupted === undefined || result.verdict !== 'not-covered') return result;
  return { ...result, verdict: 'skip', reason: `not run: the run was interrupted (${interrupted.reason}) before any test of it` };
}

/** The base URL without credentials, query or fragment: nothing secret goes into a report. */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.href.replace(/\/$/, '');
  } catch {
    return '(not a URL)';
  }
}
