/**
 * A run that stopped on an error of its own (a bug of ours, a target that broke something the run
 * relies on) still ends as the README promises: with a report that names the error, and exit 2.
 * Setup problems are not this: they are ToolkitErrors, one line and exit 2 before any test.
 */
import { buildReport, type Report } from '../report/model.ts';
import { runInfo } from '../report/run-info.ts';
import type { SuiteConfig } from '../suite/config.ts';

/** What the run knew when it stopped. */
export interface FailedRunFacts {
  readonly config: SuiteConfig;
  readonly embedded: boolean;
  readonly startedAt: Date;
  readonly grep?: string | undefined;
}

/** The report of a run stopped by `error`: no test results, the error among the run's errors (outcome `error`). */
export function failedRunReport(error: unknown, facts: FailedRunFacts): Report {
  return buildReport(
    [],
    runInfo({
      config: facts.config,
      embedded: facts.embedded,
      startedAt: facts.startedAt,
      durationMs: Date.now() - facts.startedAt.getTime(),
      ...(facts.grep !== undefined && { grep: facts.grep }),
      unhandledErrors: [{ message: `the run stopped on an error of its own: ${errorLine(error)}` }],
    }),
  );
}

/** The error's name and the first line of its message, cut at 300 characters. */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
