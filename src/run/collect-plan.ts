/**
 * The plan of a run from the suite itself: vitest collects the conformance files (nothing is sent),
 * and each test's declared requirements, needs, cost, value and time allowance make the plan
 * (src/run/plan.ts). `run --plan` prints it; `run` computes it first, to grant the credit budget
 * in the order of value and to bound the run's wall time.
 */
import { relative, resolve, sep } from 'node:path';
import { Agent } from 'undici';
import type { TestCase, TestModule, Vitest } from 'vitest/node';
import { createSend } from '../client/http-client.ts';
import type { Capability, RequirementId } from '../contract/requirements.ts';
import { configuredOffers } from '../suite/capabilities.ts';
import type { SuiteConfig } from '../suite/config.ts';
import type { CreditPlan } from '../suite/conformance.ts';
import { controlClient } from '../suite/control-client.ts';
import type { Cost, Value } from '../suite/cost.ts';
import { earlierRunCandidates, readEarlierRuns } from './earlier-run.ts';
import { embeddedSettings } from './embedded-target.ts';
import { exampleMockSign } from './example-mock.ts';
import type { DeclaredTimings } from './estimate.ts';
import { makePlan, type EstimateInputs, type Plan, type PlannedTest } from './plan.ts';
import type { RunRequest } from './run-request.ts';
import { packageRoot, suiteProject } from './suite-project.ts';
import { embeddedWorkers } from './vitest-project.ts';

/** The tests of the conformance project as declared (by full name), optionally narrowed like `--grep`. */
export async function collectPlannedTests(config: SuiteConfig, grep?: string): Promise<PlannedTest[]> {
  const { createVitest } = await import('vitest/node');
  const vitest = await createVitest('test', {
    ...suiteProject,
    project: [...suiteProject.project],
    watch: false,
    provide: { suiteConfig: config },
  });
  try {
    return (await collectionOf(vitest, grep)).tests;
  } finally {
    await vitest.close();
  }
}

/** The tests `vitest` collects, and whether every file loaded (a collection with errors is not kept: collection-cache.ts). */
export async function collectionOf(
  vitest: Vitest,
  grep?: string,
): Promise<{ readonly tests: PlannedTest[]; readonly complete: boolean }> {
  const { testModules } = await vitest.collect();
  return { tests: plannedTestsOf(testModules, grep), complete: testModules.every((m) => m.errors().length === 0) };
}

/** The tests of `testModules` as the plan reads them (their declarations), narrowed like `--grep`. */
export function plannedTestsOf(testModules: readonly TestModule[], grep?: string): PlannedTest[] {
  const pattern = grep === undefined ? undefined : new RegExp(grep);
  return testModules.flatMap((m) =>
    [...m.children.allTests()]
      .filter((t) => pattern === undefined || pattern.test(nameVitestMatches(t, m)))
      .map((t) => {
        const meta = t.meta();
        return {
          name: t.fullName,
          file: m.moduleId.replace(suiteProject.root, ''),
          requirements: (meta.requirements ?? []) as RequirementId[],
          needs: (meta.needs ?? []) as Capability[],
          cost: (meta.cost ?? { credits: 0, starts: 0, polls: 0, uploads: 0 }) as Cost,
          value: (meta.value ?? 'rest') as Value,
          ...(meta.allowanceMs !== undefined && { allowanceMs: meta.allowanceMs }),
          ...(meta.typical !== undefined && { typical: meta.typical }),
        };
      }),
  );
}

/**
 * The name `--grep` (vitest's testNamePattern) is matched against, as vitest builds it: the file's
 * path relative to the project root, each enclosing suite and the test, joined by spaces (not the
 * " > " of `fullName`), so the plan narrows to exactly the tests the run then runs.
 */
export function nameVitestMatches(test: TestCase, module: TestModule): string {
  const names: string[] = [test.name];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) names.unshift(parent.name);
  return [relative(module.project.config.root, module.moduleId).split(sep).join('/'), ...names].join(' ');
}

/** The plan of a run of `config`. */
export async function planRun(config: SuiteConfig, grep?: string, inputs: EstimateInputs = {}): Promise<Plan> {
  return planOf(await collectPlannedTests(config, grep), config, inputs);
}

/** The plan of a run of `config` that will run `tests`; `inputs` for its estimate (an earlier run, with test control). */
export function planOf(tests: PlannedTest[], config: SuiteConfig, inputs: EstimateInputs = {}): Plan {
  return makePlan(tests, configuredOffers(config), config.creditBudget, config.control !== undefined, inputs);
}

/**
 * What the estimate of a run of `config` starts from: the generation time when the request gives one,
 * the limits the user declared, with test control the timings the target declares (the embedded
 * target's own; a remote one's GET /_control/settings, unless the plan may send nothing), and the
 * latest earlier runs of the same kind (earlier-run.ts): under the report root, else the repository's reference run.
 */
export async function estimateInputsFor(
  config: SuiteConfig,
  request: RunRequest,
  o: { readonly sendNothing?: boolean } = {},
): Promise<EstimateInputs> {
  const { limits } = config;
  const candidates = await earlierRunCandidates(resolve(request.reportRoot), packageRoot);
  const earlier = await readEarlierRuns(candidates, {
    embedded: request.embedded,
    profile: config.profile,
    baseUrl: config.baseUrl,
    control: config.control !== undefined,
  });
  const timings = request.embedded ? embeddedTimings() : o.sendNothing ? undefined : await declaredTimings(config);
  const exampleMock = request.embedded || o.sendNothing ? undefined : await exampleMockSign(config);
  return {
    ...(request.generationSeconds !== undefined && { generationSeconds: request.generationSeconds }),
    ...(limits !== undefined && { limits }),
    ...(earlier.length > 0 && { earlier }),
    ...(timings !== undefined && { timings }),
    ...(exampleMock !== undefined && { exampleMock }),
    ...(request.embedded && { workers: embeddedWorkers }),
  };
}

/** The embedded target's timings (embedded-target.ts), each in place. */
function embeddedTimings(): DeclaredTimings | undefined {
  const { syncWaitMs, generationLatencyMs, slowGenerationMs, fetchTimeoutMs } = embeddedSettings;
  if (syncWaitMs === undefined || generationLatencyMs === undefined || slowGenerationMs === undefined) return undefined;
  return { syncWaitMs, generationLatencyMs, slowGenerationMs, ...(fetchTimeoutMs !== undefined && { fetchTimeoutMs }) };
}

/** The timings a remote target with test control declares; nothing without control, or when it does not say. */
async function declaredTimings(config: SuiteConfig): Promise<DeclaredTimings | undefined> {
  if (config.control === undefined) return undefined;
  const dispatcher = new Agent({ connections: 1 });
  try {
    const send = createSend({ baseUrl: config.baseUrl, alsoTo: [config.control.url], dispatcher, timeoutMs: 10_000 });
    const settings = await controlClient(send, config.control.url, config.control.token).settings();
    return typeof settings.generationLatencyMs === 'number' ? settings : undefined;
  } catch {
    // Preflight has checked test control; a settings read that fails now leaves the spec's timings.
    return undefined;
  } finally {
    await dispatcher.close();
  }
}

/** What the worker needs of the plan: the credits held per test, and the budget that would run each test not granted. */
export function creditPlanOf(plan: Plan): CreditPlan {
  return {
    holds: Object.fromEntries(plan.allotment.granted.map((g) => [g.name, g.credits])),
    wouldRunAt: Object.fromEntries(plan.allotment.refused.map((r) => [r.name, r.budgetThatRunsIt])),
  };
}
