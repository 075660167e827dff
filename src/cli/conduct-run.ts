/**
 * One run of the suite, from a parsed request to its report, for the `run` command and the
 * package's runConformance (src/index.ts). In order: the target (the embedded one starts while the
 * suite is collected), preflight, the plan, the suite, the report.
 */
import type { Reporter } from 'vitest/node';
import { withExpectations } from '../report/expectations.ts';
import { buildReport, type Report } from '../report/model.ts';
import { runInfo } from '../report/run-info.ts';
import { exitStatusOf } from '../report/summary.ts';
import { writeReport, type WrittenReport } from '../report/write-report.ts';
import { creditPlanOf, estimateInputsFor, planOf } from '../run/collect-plan.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../run/embedded-target.ts';
import { formatEstimate, mayAlsoRun, plannedCostOf, type Plan } from '../run/plan.ts';
import type { RunRequest } from '../run/run-request.ts';
import { SuiteSession, type SuiteRun } from '../run/suite-session.ts';
import { embeddedWorkers } from '../run/vitest-project.ts';
import { terminalLine } from '../shared/escape.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';
import type { SuiteConfig } from '../suite/config.ts';
import type { EmbeddedInstance } from '../suite/worker-instance.ts';
import type { PlannedCost } from '../report/cost.ts';
import { errorLine, failedRunReport } from './failed-run.ts';
import { RunStop, endedByTheStop, exitStatusOfInterruption } from './interrupt.ts';
import { preflight } from './preflight.ts';
import { printErr } from './print.ts';

/** How {@link conductRun} talks to its caller: the CLI, or the programmatic API (src/index.ts). */
export interface RunIo {
  /** One line of the run's own story (the target, the plan, the seed). */
  readonly log: (line: string) => void;
  /** vitest reporters for the tests as they run (the collection for the plan is kept from them). */
  readonly reporters: ReadonlyArray<string | Reporter>;
  /** Where the lines about a stop go (default stderr). */
  readonly warn?: (line: string) => void;
  /** Stop on SIGINT and SIGTERM (the CLI); a library leaves the process's signals alone. */
  readonly listenToSignals?: boolean;
  /** Stops the run like a signal would: every request stops, the partial report is marked interrupted. */
  readonly signal?: AbortSignal;
  /** Write the report's four files under the request's report root. */
  readonly writeReport?: boolean;
}

/** What a run left: its report, the files written (when asked), and the exit status the CLI would give. */
export interface ConductedRun {
  readonly report: Report;
  readonly written?: WrittenReport;
  readonly exitCode: number;
}

/**
 * Runs the suite for `request`. A setup problem throws its ToolkitError; any other error ends the
 * run with a report that names it, and exit 2 (failed-run.ts).
 */
export async function conductRun(request: RunRequest, io: RunIo): Promise<ConductedRun> {
  const startedAt = new Date();
  try {
    return await conductSuite(request, io);
  } catch (error) {
    if (error instanceof ToolkitError) throw error;
    const { config, embedded, grep } = request;
    const report = failedRunReport(error, { config, embedded, startedAt, grep });
    const warn = io.warn ?? ((line: string): void => printErr(`${line}\n`));
    // The error may quote what the target sent: one line, its controls shown, for any caller's terminal.
    warn(terminalLine(`run: stopped on an error of its own: ${errorLine(error)}`));
    const written = io.writeReport ? await writeReport(report, { root: request.reportRoot }) : undefined;
    return { report, exitCode: 2, ...(written && { written }) };
  }
}

/** What the suite's run left, with what the report needs to know of it. */
interface Ran extends SuiteRun {
  /** The target as checked: the configuration the tests ran with. */
  readonly config: SuiteConfig;
  /** When the suite started, after the plan. */
  readonly startedAt: Date;
  readonly plannedCost: PlannedCost;
}

async function conductSuite(request: RunRequest, io: RunIo): Promise<ConductedRun> {
  const target = await startTarget(request, io.log);
  // Ctrl-C, SIGTERM, the caller's signal or the plan's wall-time bound stop every request and leave a partial report.
  const stop = new RunStop(io.warn);
  if (io.listenToSignals) stop.listen();
  try {
    const ran = await runOnTarget(request, io, stop, target);
    return await reportOf(request, io, stop, ran);
  } finally {
    stop.dispose();
  }
}

/** The target: a remote one preflight has checked, or the embedded one on its way up. */
type Target = { readonly remote: SuiteConfig } | { readonly starting: Promise<EmbeddedTarget> };

/** The embedded target starts, to be up once the suite is collected; any other is checked before vitest starts. */
async function startTarget(request: RunRequest, log: (line: string) => void): Promise<Target> {
  if (!request.embedded) return { remote: await preflight(request.config, { embedded: false, log }) };
  const starting = startEmbeddedTarget(request.config, undefined, { instances: embeddedWorkers });
  starting.catch(() => undefined);
  return { starting };
}

/** The suite on one vitest instance, stopped with the run; the embedded target closes after it. */
async function runOnTarget(request: RunRequest, io: RunIo, stop: RunStop, target: Target): Promise<Ran> {
  const onAbort = (): void => stop.stop('stopped by the caller (AbortSignal)');
  if (io.signal?.aborted) onAbort();
  io.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const cancel = new AbortController();
    const collectWith = 'remote' in target ? target.remote : request.config;
    const session = await SuiteSession.open({
      config: collectWith,
      grep: request.grep,
      reporters: io.reporters,
      parallel: request.embedded,
      keptDir: request.keptDir,
      signal: cancel.signal,
    });
    const detach = stop.attach((reason) => cancel.abort(reason));
    try {
      return await planAndRun(session, request, io, stop, target);
    } finally {
      detach();
      await session.close();
    }
  } finally {
    io.signal?.removeEventListener('abort', onAbort);
    if ('starting' in target) await (await target.starting.catch(() => undefined))?.close();
  }
}

/**
 * The plan, from the tests collected on the instance that then runs them, grants the credit budget
 * in the order of value and bounds the run's wall time; then the suite runs on the checked target.
 */
async function planAndRun(
  session: SuiteSession,
  request: RunRequest,
  io: RunIo,
  stop: RunStop,
  target: Target,
): Promise<Ran> {
  const collected = await session.collect();
  const checked = 'remote' in target ? { config: target.remote } : await checkEmbedded(await target.starting, io.log);
  const plan = planOf(collected.tests, checked.config, await estimateInputsFor(checked.config, request));
  for (const line of planLines(plan, checked.config, collected.kept)) io.log(line);
  stop.boundWallTime(plan.wallBoundSeconds * 1000);
  const startedAt = new Date();
  const ran = await session.run(collected, { creditPlan: creditPlanOf(plan), ...checked });
  return { ...ran, config: checked.config, startedAt, plannedCost: plannedCostOf(plan) };
}

/** The embedded target once up, checked by preflight like any other (setup problems are toolkit errors, exit 2). */
async function checkEmbedded(
  embedded: EmbeddedTarget,
  log: (line: string) => void,
): Promise<{ config: SuiteConfig; instances: readonly EmbeddedInstance[] }> {
  const { baseUrl, fixtureBaseUrl } = embedded.config;
  log(`Embedded reference server at ${baseUrl} (test control on), fixtures at ${fixtureBaseUrl}`);
  return { config: await preflight(embedded.config, { embedded: true, log }), instances: embedded.instances };
}

/** The plan in three lines: what runs and what it may spend, the estimate, and the seed to replay it. */
function planLines(plan: Plan, config: SuiteConfig, kept: boolean): string[] {
  const run = plan.tests.filter((t) => !t.skip).length;
  const from = kept ? ' (from the collection kept for these files, checked against the run)' : '';
  const credits = `${plan.credits} of ${config.creditBudget} credits granted up front`;
  const bound = `wall-time bound ${Math.ceil(plan.wallBoundSeconds / 60)} min${from}`;
  // The estimate's basis may quote a target (an example mock's try-on id, what an earlier run learned).
  return [
    `Plan: ${run} of ${plan.tests.length} tests to run${mayAlsoRun(plan)}, ${credits}; ${bound}`,
    formatEstimate(plan.estimate).trim(),
    `Seed ${config.seed} (replay a failure with --seed ${config.seed} --path <path>)`,
  ].map(terminalLine);
}

/** The report of the run, written when asked, and the exit status: the report's outcome, or the stop's. */
async function reportOf(request: RunRequest, io: RunIo, stop: RunStop, ran: Ran): Promise<ConductedRun> {
  const built = buildReport(
    ran.modules,
    runInfo({
      config: ran.config,
      embedded: request.embedded,
      startedAt: ran.startedAt,
      durationMs: Date.now() - ran.startedAt.getTime(),
      ...(request.grep !== undefined && { grep: request.grep }),
      // A stop makes vitest's pool report errors of its own: they are the stop, not errors of the run.
      unhandledErrors: ran.unhandledErrors.filter((e) => stop.stopped === undefined || !endedByTheStop(e.message)),
      ...(stop.stopped !== undefined && { interrupted: stop.stopped }),
      plannedCost: ran.plannedCost,
    }),
  );
  // Known failures (--expect): reported as expected, out of the outcome; stale entries noted.
  const report = withExpectations(built, request.expectations, new Date());
  const written = io.writeReport ? await writeReport(report, { root: request.reportRoot }) : undefined;
  const { stopped } = stop;
  const exitCode = stopped !== undefined ? exitStatusOfInterruption(stopped) : exitStatusOf(report.summary.outcome);
  return { report, exitCode, ...(written && { written }) };
}
