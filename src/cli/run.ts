/**
 * `tryon-conformance run`: the main job. Plans or runs the conformance suite (vitest project
 * `conformance`) against a base URL or the embedded reference server. Exit 0 when every MUST
 * requirement that was exercised passed, 1 on conformance failures, 2 on usage errors or an
 * unreachable target.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { createVitest, startVitest, type Reporter, type TestModule } from 'vitest/node';
import { buildReport } from '../report/model.ts';
import { ProgressReporter, liveProgress } from '../report/progress.ts';
import { runInfo } from '../report/run-info.ts';
import { writeReport } from '../report/write-report.ts';
import { configuredOffers } from '../suite/capabilities.ts';
import type { SuiteConfig } from '../suite/config.ts';
import type { Cost } from '../suite/conformance.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../suite/embedded-target.ts';
import { formatPlan, makePlan, type PlannedTest } from '../suite/plan.ts';
import { requirement, type Capability, type RequirementId } from '../spec/requirements.ts';
import { parseRunFlags, runHelp, type RunRequest } from './run-config.ts';
import { ToolkitError } from './toolkit-errors.ts';

const root = new URL('../../', import.meta.url).pathname;

export async function run(argv: readonly string[]): Promise<number> {
  const parsed = parseRunFlags(argv, process.env);
  if (parsed === 'help') {
    process.stdout.write(`${runHelp}\n`);
    return 0;
  }
  if (parsed.plan) return printPlan(parsed);
  let embedded: EmbeddedTarget | undefined;
  let config: SuiteConfig;
  if (parsed.config.baseUrl === undefined) {
    embedded = await startEmbeddedTarget(parsed.config);
    config = embedded.config;
    process.stdout.write(`Embedded reference server at ${config.baseUrl} (test control on), fixtures at ${config.fixtureBaseUrl}\n`);
  } else {
    config = parsed.config as SuiteConfig;
    await assertReachable(config.baseUrl);
  }
  process.stdout.write(`Seed ${config.seed} (replay a failure with --seed ${config.seed} --path <path>)\n`);
  const startedAt = new Date();
  let modules: readonly TestModule[];
  try {
    const progress = new ProgressReporter({ live: liveProgress(process.stdout, process.env), creditBudget: config.creditBudget });
    modules = await runSuite(config, parsed.grep, [progress]);
  } finally {
    await embedded?.close();
  }
  const report = buildReport(
    modules,
    runInfo({ config, embedded: embedded !== undefined, startedAt, durationMs: Date.now() - startedAt.getTime(), ...(parsed.grep !== undefined && { grep: parsed.grep }) }),
  );
  const written = await writeReport(report, { root: parsed.reportRoot ?? join(root, 'reports') });
  process.stdout.write(
    `\nReport: ${written.files.html}\n  also ${written.files.json}, ${written.files.junit}, ${written.files.markdown}\n  latest copy: ${written.latest}\n`,
  );
  if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, await readFile(written.files.markdown, 'utf8'));
  return verdict(modules);
}


/** Runs the conformance project once against `config` and returns its test modules. */
export async function runSuite(config: SuiteConfig, grep?: string, reporters: Array<string | Reporter> = ['default']): Promise<readonly TestModule[]> {
  const vitest = await startVitest(
    'test',
    [],
    { root, project: ['conformance'], watch: false, run: true, reporters, provide: { suiteConfig: config }, ...(grep !== undefined && { testNamePattern: grep }) },
  );
  await vitest.close();
  return vitest.state.getTestModules();
}

/** 0 when no exercised test that proves a MUST requirement failed; 1 otherwise. */
export function verdict(modules: readonly TestModule[]): number {
  let failedMust = 0;
  let failedOther = 0;
  for (const module of modules) {
    if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failedMust++;
    for (const test of module.children.allTests()) {
      if (test.result().state !== 'failed') continue;
      const ids = test.meta().requirements ?? [];
      if (ids.length === 0 || ids.some((id) => requirement(id).level === 'MUST')) failedMust++;
      else failedOther++;
    }
  }
  if (failedOther > 0) process.stdout.write(`${failedOther} test(s) of SHOULD/MAY requirements failed (reported, not fatal)\n`);
  return failedMust > 0 ? 1 : 0;
}

async function printPlan(parsed: RunRequest): Promise<number> {
  const embedded = parsed.config.baseUrl === undefined;
  const config: SuiteConfig = embedded
    ? { ...parsed.config, baseUrl: 'http://127.0.0.1/api/v1', control: { url: 'embedded', token: 'embedded' }, fixtureBaseUrl: 'embedded' }
    : (parsed.config as SuiteConfig);
  const vitest = await createVitest('test', { root, project: ['conformance'], watch: false, provide: { suiteConfig: config } });
  try {
    const { testModules } = await vitest.collect();
    const tests: PlannedTest[] = testModules.flatMap((m) =>
      [...m.children.allTests()].map((t) => {
        const meta = t.meta();
        return {
          name: t.fullName,
          file: m.moduleId.replace(root, ''),
          requirements: (meta.requirements ?? []) as RequirementId[],
          needs: (meta.needs ?? []) as Capability[],
          cost: (meta.cost ?? { credits: 0, starts: 0, polls: 0, uploads: 0 }) as Cost,
        };
      }),
    );
    const plan = makePlan(tests, configuredOffers(config), config.creditBudget, config.control !== undefined);
    process.stdout.write(`Target: ${embedded ? 'the embedded reference server (test control on)' : config.baseUrl}\n`);
    process.stdout.write(formatPlan(plan));
    return 0;
  } finally {
    await vitest.close();
  }
}

async function assertReachable(baseUrl: string): Promise<void> {
  try {
    const res = await request(`${baseUrl}/account`, { method: 'GET', headersTimeout: 10_000, bodyTimeout: 10_000, signal: AbortSignal.timeout(15_000) });
    await res.body.dump();
  } catch (error) {
    throw new ToolkitError('UNREACHABLE', `run: cannot reach ${baseUrl}: ${(error as { code?: string }).code ?? (error as Error).message}`);
  }
}
