/**
 * `tryon-conformance run`: the main job. Plans or runs the conformance suite (vitest project
 * `conformance`) against a base URL or the embedded reference server. Exit 0 when every MUST
 * requirement that was judged passed, 1 when one failed (the report's outcome, per requirement),
 * 2 on usage errors, an unreachable target, or errors of the run itself (a file that did not load,
 * an unhandled error).
 */
import { appendFile, readFile } from 'node:fs/promises';
import type { CancelReason } from 'vitest';
// vitest loads when the suite starts, after the embedded server's processes (commands.ts).
import type { createVitest, Reporter, TestModule, Vitest } from 'vitest/node';
import { terminalLine } from '../shared/escape.ts';
import { headline } from '../report/format.ts';
import { buildReport, type Report } from '../report/model.ts';
import { ProgressReporter, liveProgress } from '../report/progress.ts';
import { runInfo } from '../report/run-info.ts';
import { exitStatusOf } from '../report/summary.ts';
import { writeReport, type WrittenReport } from '../report/write-report.ts';
import type { SuiteConfig } from '../suite/config.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../run/embedded-target.ts';
import { embeddedWorkers } from '../run/vitest-project.ts';
import type { EmbeddedInstance } from '../suite/worker-instance.ts';
import type { PlannedCost } from '../report/cost.ts';
import { formatEstimate, formatPlan, plannedCostOf, type PlannedTest } from '../run/plan.ts';
import type { CreditPlan } from '../suite/conformance.ts';
import { collectionOf, creditPlanOf, earlierRunFor, planOf, planRun, plannedTestsOf } from '../run/collect-plan.ts';
import { collectionCacheFor, type CollectionCache } from '../run/collection-cache.ts';
import { collectionDifference } from '../run/collection-check.ts';
import { reporterGate, type ReporterGate } from '../run/gated-reporter.ts';
import { parseRunFlags, runHelp, type RunRequest } from './run-config.ts';
import { RunStop, endedByTheStop, exitStatusOfInterruption, withoutSignalListeners } from './interrupt.ts';
import { errorLine, failedRunReport } from './failed-run.ts';
import { preflight } from './preflight.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';
import { printErr, printOut } from './print.ts';
import { suiteProjectOf } from '../run/suite-project.ts';

export async function run(argv: readonly string[]): Promise<number> {
  const parsed = parseRunFlags(argv, process.env);
  if (parsed === 'help') {
    process.stdout.write(`${runHelp}\n`);
    return 0;
  }
  if (parsed.plan) return printPlan(parsed);
  const log = (line: string): void => printOut(`${line}\n`);
  const done = await conductRun(parsed, {
    log,
    reporters: (config) => [new ProgressReporter({ live: liveProgress(process.stdout, process.env), creditBudget: config.creditBudget })],
    listenToSignals: true,
    writeReport: true,
  });
  const written = done.written;
  if (written === undefined) throw new Error('run: the report was not written');
  printOut(
    `\nReport: ${written.files.html}\n  also ${written.files.json}, ${written.files.junit}, ${written.files.markdown}\n  latest copy: ${written.latest}\n`,
  );
  if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, await readFile(written.files.markdown, 'utf8'));
  // The report's own outcome, judged per requirement: 0 pass, 1 a binding MUST failed, 2 errors of the run itself.
  printOut(`${headline(done.report)}\n`);
  return done.exitCode;
}

/** How {@link conductRun} talks to its caller: the CLI, or the programmatic API (src/index.ts). */
export interface RunIo {
  /** One line of the run's own story (the target, the plan, the seed). */
  readonly log: (line: string) => void;
  /** vitest reporters for the run, made once the configuration is known. */
  readonly reporters: (config: SuiteConfig) => Array<string | Reporter>;
  /** Where the lines about a stop go (default stderr). */
  readonly warn?: (line: string) => void;
  /** Stop on SIGINT and SIGTERM (the CLI); a library leaves the process's signals alone. */
  readonly listenToSignals?: boolean;
  /** Stops the run like a signal would: every request stops, the partial report is marked interrupted. */
  readonly signal?: AbortSignal;
  /** Write the report's four files (under `request.reportRoot`, default ./reports). */
  readonly writeReport?: boolean;
}

/** What a run left: its report, the files written (when asked), and the exit status the CLI would give. */
export interface ConductedRun {
  readonly report: Report;
  readonly written?: WrittenReport;
  readonly exitCode: number;
}

/**
 * One run of the suite, from a parsed request to its report: the embedded target when there is
 * no base URL, preflight, the plan (credit budget and wall-time bound), the suite, the report.
 * A setup problem throws its ToolkitError; any other error ends the run with a report that names
 * it, and exit 2 (failed-run.ts).
 */
export async function conductRun(request: RunRequest, io: RunIo): Promise<ConductedRun> {
  const startedAt = new Date();
  try {
    return await conductSuite(request, io);
  } catch (error) {
    if (error instanceof ToolkitError) throw error;
    const embedded = request.config.baseUrl === undefined;
    const config = embedded ? embeddedShape(request.config) : (request.config as SuiteConfig);
    const report = failedRunReport(error, { config, embedded, startedAt, grep: request.grep });
    const warn = io.warn ?? ((line: string): void => printErr(`${line}\n`));
    // The error may quote what the target sent: one line, its controls shown, for any caller's terminal.
    warn(terminalLine(`run: stopped on an error of its own: ${errorLine(error)}`));
    const root = request.reportRoot === undefined ? {} : { root: request.reportRoot };
    const written = io.writeReport ? await writeReport(report, root) : undefined;
    return { report, exitCode: 2, ...(written && { written }) };
  }
}

async function conductSuite(request: RunRequest, io: RunIo): Promise<ConductedRun> {
  const { log } = io;
  let embedded: EmbeddedTarget | undefined;
  let config: SuiteConfig | undefined;
  // The embedded target starts (one instance of the server per worker: its files run in parallel,
  // src/run/vitest-project.ts) while vitest collects the suite for the plan.
  const embeddedStart = request.config.baseUrl === undefined ? startEmbeddedTarget(request.config, undefined, { instances: embeddedWorkers }) : undefined;
  embeddedStart?.catch(() => undefined);
  // The target checked: setup problems stop the run here, before any test file starts (toolkit errors, exit 2).
  const checkTarget = async (): Promise<SuiteConfig> => {
    if (embeddedStart !== undefined) {
      embedded = await embeddedStart;
      log(`Embedded reference server at ${embedded.config.baseUrl} (test control on), fixtures at ${embedded.config.fixtureBaseUrl}`);
    }
    config = await preflight(embedded?.config ?? (request.config as SuiteConfig), { embedded: embedded !== undefined, log });
    return config;
  };
  // Any other target is checked before vitest starts at all, as it always was.
  if (embeddedStart === undefined) await checkTarget();
  let startedAt = new Date();
  // Ctrl-C, SIGTERM, the caller's signal or the plan's wall-time bound stop every request and leave a partial report (interrupt.ts).
  const stop = new RunStop(io.warn);
  if (io.listenToSignals) stop.listen();
  const onAbort = (): void => stop.stop('stopped by the caller (AbortSignal)');
  if (io.signal?.aborted) onAbort();
  io.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let ran: SuiteRun;
    let plannedCost: PlannedCost | undefined;
    try {
      // The plan, from the suite collected on the instance that then runs it (or, with test control,
      // from the collection a run of the same files kept, collection-cache.ts), grants the credit
      // budget in the order of value and bounds the run's wall time.
      const plan: PlanTheRun = async (tests, how) => {
        const checked = config ?? (await checkTarget());
        const inputs = { ...(await earlierRunFor(checked, embedded !== undefined, request.reportRoot)), ...(request.generationSeconds !== undefined && { generationSeconds: request.generationSeconds }) };
        const plan = planOf(tests, checked, inputs);
        plannedCost = plannedCostOf(plan);
        log(
          `Plan: ${plan.tests.filter((t) => !t.skip).length} of ${plan.tests.length} tests to run, ${plan.credits} of ${checked.creditBudget} credits granted up front; wall-time bound ${Math.ceil(plan.wallBoundSeconds / 60)} min${how?.kept ? ' (from the collection kept for these files, checked against the run)' : ''}`,
        );
        log(formatEstimate(plan.estimate).trim());
        log(`Seed ${checked.seed} (replay a failure with --seed ${checked.seed} --path <path>)`);
        stop.boundWallTime(plan.wallBoundSeconds * 1000);
        startedAt = new Date();
        return { creditPlan: creditPlanOf(plan), config: checked, ...(embedded && { instances: embedded.instances }) };
      };
      // What vitest collects with, before the embedded target is up: its shape (test control on), like `run --plan`.
      const collectWith = config ?? embeddedShape(request.config);
      ran = await runSuiteWithErrors(collectWith, request.grep, io.reporters(collectWith), stop, plan, embeddedStart !== undefined);
    } finally {
      io.signal?.removeEventListener('abort', onAbort);
      await (embedded ?? (await embeddedStart?.catch(() => undefined)))?.close();
    }
    if (config === undefined) throw new Error('run: the target was not checked');
    const report = buildReport(
      ran.modules,
      runInfo({
        config,
        embedded: embedded !== undefined,
        startedAt,
        durationMs: Date.now() - startedAt.getTime(),
        ...(request.grep !== undefined && { grep: request.grep }),
        unhandledErrors: stop.stopped === undefined ? ran.unhandledErrors : ran.unhandledErrors.filter((e) => !endedByTheStop(e.message)),
        ...(stop.stopped !== undefined && { interrupted: stop.stopped }),
        ...(plannedCost !== undefined && { plannedCost }),
      }),
    );
    const written = io.writeReport ? await writeReport(report, request.reportRoot === undefined ? {} : { root: request.reportRoot }) : undefined;
    const exitCode = stop.stopped !== undefined ? exitStatusOfInterruption(stop.stopped) : exitStatusOf(report.summary.outcome);
    return { report, exitCode, ...(written && { written }) };
  } finally {
    stop.dispose();
  }
}

/** Runs the conformance project once against `config` and returns its test modules. */
export async function runSuite(config: SuiteConfig, grep?: string, reporters: Array<string | Reporter> = ['default']): Promise<readonly TestModule[]> {
  return (await runSuiteWithErrors(config, grep, reporters)).modules;
}

/** What one run of the suite left: its test modules, and vitest's unhandled errors (errors of the run, not findings). */
export interface SuiteRun {
  readonly modules: readonly TestModule[];
  readonly unhandledErrors: ReadonlyArray<{ readonly message: string }>;
}

/**
 * What the plan of a run gives the suite (run.ts's conductRun): called with the tests collected on
 * the run's own vitest instance, before any of them runs.
 */
export type PlanTheRun = (tests: PlannedTest[], how?: { readonly kept: boolean }) => CreditPlan | PlannedRun | Promise<CreditPlan | PlannedRun>;

/** What the plan of a run gives the suite: the credit grant, and the target when it was not known at collection. */
export interface PlannedRun {
  readonly creditPlan: CreditPlan;
  /** The configuration the tests run with (default: the one the suite was collected with). */
  readonly config?: SuiteConfig;
  /** The embedded server's instances, one per worker, in a parallel run. */
  readonly instances?: readonly EmbeddedInstance[];
}

/** The embedded target's configuration before it is up: its shape, enough to collect the suite (`run --plan` collects with it too). */
export function embeddedShape(base: RunRequest['config']): SuiteConfig {
  return { ...base, baseUrl: 'http://127.0.0.1/api/v1', control: { url: 'embedded', token: 'embedded' }, fixtureBaseUrl: 'embedded' };
}

/**
 * Runs the conformance project once against `config`; the unhandled errors go into the report's
 * errors. With `plan`, vitest first collects the files (nothing is sent) and the plan's credit
 * grant reaches the worker; the same instance then runs them, so the files are transformed once.
 */
export async function runSuiteWithErrors(
  config: SuiteConfig,
  grep?: string,
  reporters: Array<string | Reporter> = ['default'],
  stop?: RunStop,
  plan?: PlanTheRun,
  parallel = false,
): Promise<SuiteRun> {
  // In parallel (the embedded server only), each worker runs on an instance of its own: the plan gives them.
  const provide = { suiteConfig: config };
  // The collection is no part of the run: its reporters hear of it only once the run starts.
  const gate = plan === undefined ? undefined : reporterGate(reporters.filter((r): r is Reporter => typeof r !== 'string'));
  const project = suiteProjectOf(parallel ? 'embedded' : 'any-target');
  const options = {
    ...project,
    project: [...project.project],
    watch: false,
    run: true,
    reporters: gate === undefined ? reporters : [...reporters.filter((r) => typeof r === 'string'), gate.reporter],
    provide,
    ...(grep !== undefined && { testNamePattern: grep }),
  };
  const { startVitest } = await import('vitest/node');
  // With test control the suite's collection for the plan is kept by content (collection-cache.ts).
  const cache = plan === undefined ? undefined : collectionCacheFor(project, config, grep);
  const planned = plan && { plan, grep, ...(gate && { gate }), ...(cache && { cache }) };
  const vitest = stop === undefined && plan === undefined ? await startVitest('test', [], options) : await startStoppable(options, stop ?? new RunStop(), planned);
  await vitest.close();
  const unhandledErrors = vitest.state.getUnhandledErrors().map((e) => ({ message: messageOf(e) }));
  return { modules: vitest.state.getTestModules(), unhandledErrors };
}

/**
 * startVitest, stoppable: without vitest's own SIGINT/SIGTERM listeners (they exit the process at
 * once), and cancelled by `stop` (vitest's cancel reaches the worker: src/suite/worker-stop.ts).
 * With `plan`, the files are collected first (or their kept collection is read, and checked
 * against the run's own once it has run) and the plan's credit grant is provided.
 */
async function startStoppable(
  options: Parameters<typeof createVitest>[1],
  stop: RunStop,
  planned?: PlanSource & { readonly plan: PlanTheRun; readonly gate?: ReporterGate },
): Promise<Vitest> {
  // What startVitest sets before it creates the instance.
  process.env.TEST = 'true';
  process.env.VITEST = 'true';
  process.env.NODE_ENV ??= 'test';
  const { createVitest } = await import('vitest/node');
  const vitest = await withoutSignalListeners(() => createVitest('test', options));
  const detach = stop.attach((reason) => vitest.cancelCurrentRun(reason as CancelReason));
  let failed: PlanFailed | undefined;
  try {
    let kept: PlannedTest[] | undefined;
    if (planned !== undefined) {
      kept = planned.cache?.read();
      const tests = kept ?? (await collectAndKeep(vitest, planned));
      // A target that fails its checks stops the run as it is (a toolkit error), not as an error of the suite.
      const made = await Promise.resolve()
        .then(() => planned.plan(tests, { kept: kept !== undefined }))
        .catch((error: unknown) => Promise.reject(new PlanFailed(error)));
      const run: PlannedRun = 'creditPlan' in made ? made : { creditPlan: made };
      if (run.config) vitest.provide('suiteConfig', run.config);
      if (run.instances) vitest.provide('embeddedInstances', [...run.instances]);
      vitest.provide('creditPlan', run.creditPlan);
      planned.gate?.open();
    }
    await vitest.start([]);
    if (kept !== undefined && planned !== undefined) checkKeptCollection(vitest, kept, planned, stop);
  } catch (error) {
    if (error instanceof PlanFailed) failed = error;
    else vitest.state.catchError(error, 'Unhandled Error');
  } finally {
    detach();
    await vitest.close();
  }
  if (failed) throw failed.cause;
  return vitest;
}

/** Where a run's plan finds its tests: `grep` narrows them, and `cache` keeps their collection (test control only). */
interface PlanSource {
  readonly grep: string | undefined;
  readonly cache?: CollectionCache;
}

/** Collects the suite in one worker, and keeps the collection when every file loaded. */
async function collectAndKeep(vitest: Vitest, source: PlanSource): Promise<PlannedTest[]> {
  const collected = await inOneWorker(vitest, () => collectionOf(vitest, source.grep));
  if (collected.complete) source.cache?.write(collected.tests);
  return collected.tests;
}

/**
 * A run planned from a kept collection compares it with the tests it collected itself; should they
 * differ, the entry goes and the run has an error of its own (exit 2): its plan was made for other tests.
 */
function checkKeptCollection(vitest: Vitest, kept: readonly PlannedTest[], planned: PlanSource, stop: RunStop): void {
  const difference = collectionDifference(kept, plannedTestsOf(vitest.state.getTestModules(), planned.grep), stop.stopped !== undefined);
  if (difference === undefined) return;
  planned.cache?.forget();
  vitest.state.catchError(
    new Error(`the plan came from a collection of the suite kept in ${planned.cache?.file ?? 'the cache'}, which does not match the tests this run collected: ${difference}. The entry is removed; run again for a plan of these tests.`),
    'Unhandled Error',
  );
}

/** The plan could not be made: what went wrong, to be thrown as it is once vitest is closed. */
class PlanFailed extends Error {
  constructor(cause: unknown) {
    super('the plan could not be made', { cause });
  }
}

/**
 * Runs `collect` with every project at one worker: collecting only imports the files, so more
 * workers would only import the suite's own modules once more each. The projects' workers are
 * back as they were for the run.
 */
async function inOneWorker<T>(vitest: Vitest, collect: () => Promise<T>): Promise<T> {
  const workers = vitest.projects.map((p) => [p.config, p.config.maxWorkers] as const);
  for (const [config] of workers) config.maxWorkers = 1;
  try {
    return await collect();
  } finally {
    for (const [config, maxWorkers] of workers) config.maxWorkers = maxWorkers;
  }
}

function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    const e = error as { name?: unknown; message: string };
    return typeof e.name === 'string' && e.name !== '' && e.name !== 'Error' ? `${e.name}: ${e.message}` : e.message;
  }
  return String(error);
}

/**
 * The exit status the report of `modules` would give (0 pass, 1 a binding MUST failed, 2 errors of
 * the run itself), judged per requirement by the report's own rules, for scripts that run the suite
 * without writing a report (hostile targets, acceptance runs).
 */
export function verdict(modules: readonly TestModule[], config: SuiteConfig): number {
  const report = buildReport(modules, runInfo({ config, embedded: false, startedAt: new Date(), durationMs: 0 }));
  return exitStatusOf(report.summary.outcome);
}

async function printPlan(parsed: RunRequest): Promise<number> {
  const embedded = parsed.config.baseUrl === undefined;
  const config: SuiteConfig = embedded ? embeddedShape(parsed.config) : (parsed.config as SuiteConfig);
  const inputs = { ...(await earlierRunFor(config, embedded, parsed.reportRoot)), ...(parsed.generationSeconds !== undefined && { generationSeconds: parsed.generationSeconds }) };
  const plan = await planRun(config, parsed.grep, inputs);
  printOut(`Target: ${embedded ? 'the embedded reference server (test control on)' : config.baseUrl}\n`);
  printOut(formatPlan(plan));
  return 0;
}

