/**
 * The report data model: one verdict per requirement of the catalogue, traced to the tests that cover
 * it, with the evidence of every failure. Built from vitest's test modules after a run; every writer
 * (JSON, JUnit, Markdown, HTML) renders this one value, and `report.schema.json` describes its JSON form.
 */
import type { TaskMeta } from 'vitest';
import { implementationDefinedPoints, type ImplementationDefinedPoint } from '../contract/openapi.ts';
import { allRequirements, type Requirement } from '../contract/requirements.ts';
import { alternativesSeen, withAlternatives } from './alternatives.ts';
import { runCost, type PlannedCost, type RunCost } from './cost.ts';
import { clip } from './failures.ts';
import { learnedOf } from './learned.ts';
import { requestCountsOf } from './requests-counted.ts';
import { summarise } from './summary.ts';
import { judge, testOutcome } from './verdict.ts';
import {
  reportSchemaVersion,
  type ChoiceResult,
  type Interrupted,
  type Ran,
  type Report,
  type RequirementResult,
  type RunError,
  type RunInfo,
  type TestCaseLike,
  type TestEntry,
  type TestModuleLike,
  type TestResultLike,
  type TestState,
} from './types.ts';

export * from './types.ts';

/**
 * Builds the report of a run: a verdict for every requirement of `catalogue` (fail if a covering
 * test failed or an error finding names it; pass if a covering test passed and sent the target
 * something (one that sent nothing makes it not-observable); skip if all covering tests skipped;
 * else not-observable with the catalogue's reason, or not-covered; the rules are in `verdict.ts`).
 */
export function buildReport(
  modules: readonly TestModuleLike[],
  info: RunInfo,
  catalogue: readonly Requirement[] = allRequirements(),
): Report {
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
  const requirements = catalogue.map((req) =>
    withAlternatives(notRunIfInterrupted(judge(req, ran, { seed: info.seed, target }), interrupted), seen.get(req.id)),
  );
  const tests = ran.map((r) => r.entry);
  const learned = learnedOf(ran);
  const requestCounts = requestCountsOf(ran);
  return {
    schemaVersion: reportSchemaVersion,
    tool: { name: info.tool.name, version: info.tool.version },
    target,
    openapiSha256: info.openapiSha256,
    seed: info.seed,
    ...(info.path !== undefined && { path: info.path }),
    ...(info.grep !== undefined && { grep: info.grep }),
    profile: info.profile,
    capabilities: Object.fromEntries(
      info.capabilities instanceof Map ? info.capabilities : Object.entries(info.capabilities),
    ),
    startedAt: typeof info.startedAt === 'string' ? info.startedAt : info.startedAt.toISOString(),
    durationMs: Math.round(info.durationMs),
    ...(interrupted && { interrupted }),
    summary: summarise(requirements, tests, errors.length),
    requirements,
    tests,
    errors,
    choices: choicesOf(ran, catalogue),
    ...(learned.length > 0 && { learned }),
    ...(requestCounts && { requestCounts }),
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
  const capabilities =
    info.capabilities instanceof Map ? info.capabilities : new Map(Object.entries(info.capabilities));
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
export function choicesOf(
  ran: readonly Ran[],
  catalogue: readonly Requirement[] = allRequirements(),
  documented: readonly ImplementationDefinedPoint[] = implementationDefinedPoints(),
): ChoiceResult[] {
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
      values: [...p.values]
        .sort((a, b) => b[1].count - a[1].count)
        .map(([value, v]) => ({ value, count: v.count, tests: [...v.tests] })),
    }));
}

function textOf(d: ImplementationDefinedPoint | undefined): Pick<ChoiceResult, 'referenceServer' | 'conformance'> {
  if (d === undefined) return {};
  return {
    ...(d.referenceServer !== undefined && { referenceServer: d.referenceServer }),
    ...(d.conformance !== undefined && { conformance: d.conformance }),
  };
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
    findings: {
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
    },
    ...(meta.cost !== undefined && { cost: meta.cost }),
  };
  return { test, entry: { ...entry, outcome: testOutcome({ entry, meta, errors }).outcome }, meta, errors };
}

/** The note vitest gives the tests of a cancelled run (`cancelCurrentRun`) that did not run. */
const cancelledNote = 'The test run was aborted by the user.';

function skipReasonOf(meta: TaskMeta, result: TestResultLike, grep: string | undefined): string {
  if (meta.skipReason !== undefined) return meta.skipReason;
  // vitest's note on the tests of a cancelled run that had not finished: the one it cut short says why (its
  // `inconclusive`).
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
  return {
    ...result,
    verdict: 'skip',
    reason: `not run: the run was interrupted (${interrupted.reason}) before any test of it`,
  };
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
