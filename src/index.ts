/**
 * The package's main entry (`import { runConformance } from 'tryon-conformance'`): the
 * conformance suite as a function, for an integrator's own scripts and tests. It is the CLI's
 * `run` (src/cli/run.ts) without the command line: the same checks of the options, the same
 * embedded target when no base URL is given, the same report; it writes the report's files only
 * when asked, prints nothing unless given a log, and leaves the process's signals and exit status alone.
 */
import type { Reporter } from 'vitest/node';
import { conductRun } from './cli/conduct-run.ts';
import { parseRunFlags } from './cli/run-config.ts';
import type { Report } from './report/model.ts';
import type { ReportFiles } from './report/write-report.ts';
import type { SuiteConfig } from './suite/config.ts';

export type { Report, RequirementResult, Summary, Verdict } from './report/model.ts';
export type { ReportFiles } from './report/write-report.ts';
export { ToolkitError } from './shared/toolkit-errors.ts';

/** The suite's settings a caller may give (src/suite/config.ts), every one optional. */
type SuiteOptions = Partial<
  Pick<
    SuiteConfig,
    | 'baseUrl'
    | 'apiKey'
    | 'secondApiKey'
    | 'revokedApiKey'
    | 'fixtureBaseUrl'
    | 'fixtureBehaviours'
    | 'balancePath'
    | 'control'
    | 'scenarios'
    | 'creditBudget'
    | 'profile'
    | 'seed'
    | 'path'
    | 'numRuns'
  >
>;

/**
 * What to run against, and how; the same meanings as the `run` flags of the same names. Without a
 * `baseUrl` the embedded reference server is started and targeted.
 */
export interface RunConformanceOptions extends SuiteOptions {
  /** Run only the tests whose name matches this regular expression. */
  readonly grep?: string;
  /** Write report.json, junit.xml, report.md and report.html under `<reportDir>/<timestamp>/` and `<reportDir>/latest/`. */
  readonly reportDir?: string;
  /** An expectations file (YAML or JSON) of known failures: reported as expected, they leave `exitCode` alone. */
  readonly expect?: string;
  /** With `expect`: an expected failure that passes, or an entry past its date, fails the run. */
  readonly strictExpect?: boolean;
  /** Lines of the run's own story (target, plan, seed, a stop); default: none. */
  readonly log?: (line: string) => void;
  /** vitest reporters for the tests as they run; default: none. */
  readonly reporters?: ReadonlyArray<string | Reporter>;
  /** Stops the run: every request stops, and the partial report is marked interrupted. */
  readonly signal?: AbortSignal;
}

/** A finished run. */
export interface ConformanceRun {
  readonly report: Report;
  /** What the CLI would exit with: 0 every judged MUST passed, 1 one failed, 2 errors of the run or the wall-time bound, 130 a stop. */
  readonly exitCode: number;
  /** The files written, when `reportDir` was given. */
  readonly files?: ReportFiles;
}

/**
 * Runs the conformance suite and returns its report. Options that the CLI would refuse (a base
 * URL without a key or test control, a fixture host that is not HTTPS, …) throw a ToolkitError
 * with the CLI's one-line message, before anything is sent.
 */
export async function runConformance(options: RunConformanceOptions = {}): Promise<ConformanceRun> {
  // The CLI's own parser, so that both take the same options with the same checks; of the environment
  // only where kept files go (TRYON_CACHE, TRYON_CACHE_DIR), as for the CLI.
  const request = parseRunFlags(runFlagsOf(options), {
    TRYON_CACHE: process.env.TRYON_CACHE,
    TRYON_CACHE_DIR: process.env.TRYON_CACHE_DIR,
  });
  if (request === 'help') throw new Error('runConformance: unreachable (no --help)');
  const log = options.log ?? ((): void => undefined);
  const silent: Reporter = {};
  // vitest sets process.exitCode on a failed test: the caller's process is not ours to fail.
  const exitCodeBefore = process.exitCode;
  let done: Awaited<ReturnType<typeof conductRun>>;
  try {
    done = await conductRun(request, {
      log,
      warn: log,
      reporters: options.reporters ?? [silent],
      writeReport: options.reportDir !== undefined,
      ...(options.signal !== undefined && { signal: options.signal }),
    });
  } finally {
    process.exitCode = exitCodeBefore;
  }
  return { report: done.report, exitCode: done.exitCode, ...(done.written && { files: done.written.files }) };
}

/** The `run` flags that say what `options` say. */
function runFlagsOf(o: RunConformanceOptions): string[] {
  const flags: string[] = [];
  // --flag=value: a value that starts with '-' stays a value.
  const value = (flag: string, v: string | number | undefined): void => {
    if (v !== undefined) flags.push(`--${flag}=${v}`);
  };
  const toggle = (flag: string, on: boolean | undefined): void => {
    if (on === true) flags.push(`--${flag}`);
  };
  value('base-url', o.baseUrl);
  value('api-key', o.apiKey);
  value('second-api-key', o.secondApiKey);
  value('revoked-api-key', o.revokedApiKey);
  value('fixture-base-url', o.fixtureBaseUrl);
  toggle('fixture-behaviours', o.fixtureBehaviours);
  value('balance-path', o.balancePath);
  value('control-url', o.control?.url);
  value('control-token', o.control?.token);
  toggle('scenarios', o.scenarios);
  value('credit-budget', o.creditBudget);
  value('profile', o.profile);
  value('seed', o.seed);
  value('path', o.path);
  value('num-runs', o.numRuns);
  value('grep', o.grep);
  value('report-dir', o.reportDir);
  value('expect', o.expect);
  toggle('strict-expect', o.strictExpect);
  return flags;
}
