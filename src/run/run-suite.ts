/**
 * The suite run once, unplanned, for scripts that run it without a report of their own (the
 * mutants, hostile targets, acceptance runs): its test modules, and the exit status they would give.
 */
import type { Reporter, TestModule } from 'vitest/node';
import { buildReport } from '../report/model.ts';
import { runInfo } from '../report/run-info.ts';
import { exitStatusOf } from '../report/summary.ts';
import type { SuiteConfig } from '../suite/config.ts';
import { suiteOptions } from './suite-session.ts';
import { suiteProject } from './suite-project.ts';

/** Runs the conformance project once against `config` and returns its test modules. */
export async function runSuite(
  config: SuiteConfig,
  grep?: string,
  reporters: Array<string | Reporter> = ['default'],
): Promise<readonly TestModule[]> {
  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest('test', [], suiteOptions(suiteProject, config, grep, reporters));
  await vitest.close();
  return vitest.state.getTestModules();
}

/**
 * The exit status the report of `modules` would give (0 pass, 1 a binding MUST failed, 2 errors of
 * the run itself), judged per requirement by the report's own rules.
 */
export function verdict(modules: readonly TestModule[], config: SuiteConfig): number {
  const report = buildReport(modules, runInfo({ config, embedded: false, startedAt: new Date(), durationMs: 0 }));
  return exitStatusOf(report.summary.outcome);
}
