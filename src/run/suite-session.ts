/**
 * One vitest instance of the conformance project, driven step by step by its caller: collect the
 * tests (nothing is sent), then run them with the plan's credit grant. The same instance does both,
 * so the files are transformed once; the collection's reporter hooks stay silent (gated-reporter.ts).
 */
import type { CancelReason } from 'vitest';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import type { SuiteConfig } from '../suite/config.ts';
import type { CreditPlan } from '../suite/conformance.ts';
import type { EmbeddedInstance } from '../suite/worker-instance.ts';
import { collectionOf, plannedTestsOf } from './collect-plan.ts';
import { collectionCacheFor, type CollectionCache, type SuiteLocation } from './collection-cache.ts';
import { collectionDifference } from './collection-check.ts';
import { reporterGate, type ReporterGate } from './gated-reporter.ts';
import type { PlannedTest } from './plan.ts';
import { suiteProjectOf } from './suite-project.ts';
import { withoutSignalListeners } from './without-signal-listeners.ts';

export interface SessionOptions {
  /** The configuration the suite is collected with (for the embedded target, its shape until it is up). */
  readonly config: SuiteConfig;
  readonly grep?: string | undefined;
  readonly reporters: ReadonlyArray<string | Reporter>;
  /** The embedded server's project: files in parallel, each worker on an instance of its own. */
  readonly parallel: boolean;
  /** The folder where the collection is kept between runs with test control; absent: never kept. */
  readonly keptDir?: string | undefined;
  /** Cancels the suite (a signal, the wall-time bound): vitest's cancel reaches the worker (suite/worker-stop.ts). */
  readonly signal?: AbortSignal;
}

/** The tests the suite declares, and whether they came from a kept collection rather than this instance. */
export interface Collected {
  readonly tests: PlannedTest[];
  readonly kept: boolean;
}

/** What the plan gives the suite before it runs. */
export interface SuiteGrant {
  readonly creditPlan: CreditPlan;
  /** The configuration the tests run with (default: the one the suite was collected with). */
  readonly config?: SuiteConfig;
  /** The embedded server's instances, one per worker, in a parallel run. */
  readonly instances?: readonly EmbeddedInstance[];
}

/** What one run of the suite left: its test modules, and vitest's unhandled errors (of the run, not findings). */
export interface SuiteRun {
  readonly modules: readonly TestModule[];
  readonly unhandledErrors: ReadonlyArray<{ readonly message: string }>;
}

/** The vitest options of a run of the conformance project at `location`. */
export function suiteOptions(
  location: SuiteLocation,
  config: SuiteConfig,
  grep: string | undefined,
  reporters: ReadonlyArray<string | Reporter>,
) {
  return {
    ...location,
    project: [...location.project],
    watch: false,
    run: true,
    reporters: [...reporters],
    provide: { suiteConfig: config },
    ...(grep !== undefined && { testNamePattern: grep }),
  };
}

export class SuiteSession {
  readonly #vitest: Vitest;
  readonly #gate: ReporterGate;
  readonly #cache: CollectionCache | undefined;
  readonly #grep: string | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #cancel: () => void;

  private constructor(vitest: Vitest, gate: ReporterGate, cache: CollectionCache | undefined, o: SessionOptions) {
    this.#vitest = vitest;
    this.#gate = gate;
    this.#cache = cache;
    this.#grep = o.grep;
    this.#signal = o.signal;
    this.#cancel = () => void vitest.cancelCurrentRun(o.signal?.reason as CancelReason);
    if (o.signal?.aborted) this.#cancel();
    else o.signal?.addEventListener('abort', this.#cancel, { once: true });
  }

  /** Creates the instance; without vitest's own signal listeners, which would exit the process at once. */
  static async open(o: SessionOptions): Promise<SuiteSession> {
    const project = suiteProjectOf(o.parallel ? 'embedded' : 'any-target');
    const gate = reporterGate(o.reporters.filter((r): r is Reporter => typeof r !== 'string'));
    const named = o.reporters.filter((r) => typeof r === 'string');
    const options = suiteOptions(project, o.config, o.grep, [...named, gate.reporter]);
    const cache = collectionCacheFor(project, o.config, o.grep, o.keptDir);
    // What startVitest sets before it creates the instance.
    process.env.TEST = 'true';
    process.env.VITEST = 'true';
    process.env.NODE_ENV ??= 'test';
    const { createVitest } = await import('vitest/node');
    const vitest = await withoutSignalListeners(() => createVitest('test', options));
    return new SuiteSession(vitest, gate, cache, o);
  }

  /** The tests: the collection kept for these files, else collected in one worker (and kept when complete). */
  async collect(): Promise<Collected> {
    const kept = this.#cache?.read();
    if (kept !== undefined) return { tests: kept, kept: true };
    const collected = await inOneWorker(this.#vitest, () => collectionOf(this.#vitest, this.#grep));
    if (collected.complete) this.#cache?.write(collected.tests);
    return { tests: collected.tests, kept: false };
  }

  /** Runs the suite on `grant`, then closes the instance; an error of the run goes into its unhandled errors. */
  async run(collected: Collected, grant: SuiteGrant): Promise<SuiteRun> {
    const vitest = this.#vitest;
    try {
      if (grant.config) vitest.provide('suiteConfig', grant.config);
      if (grant.instances) vitest.provide('embeddedInstances', [...grant.instances]);
      vitest.provide('creditPlan', grant.creditPlan);
      this.#gate.open();
      await vitest.start([]);
      if (collected.kept) this.#checkKept(collected.tests);
    } catch (error) {
      vitest.state.catchError(error, 'Unhandled Error');
    } finally {
      await this.close();
    }
    const unhandledErrors = vitest.state.getUnhandledErrors().map((e) => ({ message: messageOf(e) }));
    return { modules: vitest.state.getTestModules(), unhandledErrors };
  }

  /** Stops listening for the cancel and closes the instance (again: a no-op). */
  async close(): Promise<void> {
    this.#signal?.removeEventListener('abort', this.#cancel);
    await this.#vitest.close();
  }

  /** A kept collection that differs from the tests the run collected is removed, and an error of the run (exit 2). */
  #checkKept(kept: readonly PlannedTest[]): void {
    const ran = plannedTestsOf(this.#vitest.state.getTestModules(), this.#grep);
    const difference = collectionDifference(kept, ran, this.#signal?.aborted === true);
    if (difference === undefined) return;
    this.#cache?.forget();
    const where = this.#cache?.file ?? 'the cache';
    const message =
      `the plan came from a collection of the suite kept in ${where}, which does not match the tests this run ` +
      `collected: ${difference}. The entry is removed; run again for a plan of these tests.`;
    this.#vitest.state.catchError(new Error(message), 'Unhandled Error');
  }
}

/** Runs `collect` with every project at one worker (collecting only imports the files); the workers are back after. */
async function inOneWorker<T>(vitest: Vitest, collect: () => Promise<T>): Promise<T> {
  const workers = vitest.projects.map((p) => [p.config, p.config.maxWorkers] as const);
  for (const [config] of workers) config.maxWorkers = 1;
  try {
    return await collect();
  } finally {
    for (const [config, maxWorkers] of workers) config.maxWorkers = maxWorkers;
  }
}

/** An unhandled error as the report names it: its name (unless plain Error) and message. */
export function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    const e = error as { name?: unknown; message: string };
    return typeof e.name === 'string' && e.name !== '' && e.name !== 'Error' ? `${e.name}: ${e.message}` : e.message;
  }
  return String(error);
}
