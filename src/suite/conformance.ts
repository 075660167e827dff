/**
 * `conformance(name, spec, fn)`: a vitest test that names the requirements it proves, declares what
 * it needs and costs, skips with a reason when the target cannot give it that, runs the
 * per-exchange checks on everything it sends, and leaves its evidence in `task.meta` for reporters.
 */
import fc from 'fast-check';
import { inject, test, type TestContext } from 'vitest';
import { toCurl } from '../client/curl.ts';
import { assertionSentence, propertyLines } from '../shared/assertion-sentence.ts';
import type { Finding } from '../checks/finding.ts';
import { requirement, type Capability, type RequirementId } from '../contract/requirements.ts';
import { forwardProgressEvents } from './progress-bridge.ts';
import { beginEvidence, endEvidence } from './evidence.ts';
import { allowanceMs } from './allowance.ts';
import type { Cost, Typical, Value } from './cost.ts';
import { Inconclusive, RuleBroken, must, type BrokenRule, type Choice } from './rules.ts';
import { becauseOf, runFacts, type FactName } from './run-facts.ts';
import { BudgetExhausted } from './spend-guard.ts';
import type { SuiteConfig } from './config.ts';
import { connectTarget, raisedLimits, type Actor, type SuiteTarget } from './target.ts';
import { configOfWorker } from './worker-instance.ts';
import { requestsCounted } from './requests-counted.ts';
import { runStopped, stopOnCancel, stopOnSignals } from './worker-stop.ts';

export interface ExchangeSummary {
  readonly curl: string;
  readonly status: number | null;
  readonly body: string;
}

declare module 'vitest' {
  interface TaskMeta {
    requirements?: RequirementId[];
    skipReason?: string;
    findings?: Finding[];
    evidence?: ExchangeSummary[];
    /** How many of the test's exchanges the target answered (evidence keeps only the last ones). */
    answered?: number;
    counterexample?: string;
    /** The requirement whose assertion failed (`t.must`), with what was expected and received. */
    broken?: BrokenRule[];
    /** Why the test could not judge what it covers (a precondition of the run's own, our timeout). */
    inconclusive?: string;
    /** What the target chose on points the spec leaves open. */
    choices?: Choice[];
    /** What the test declares it needs and may spend; set at collection, so a plan can read it. */
    needs?: Capability[];
    cost?: Cost;
    value?: Value;
    allowanceMs?: number;
    /** What the test typically sends and spends, for the plan's estimate (estimate.ts). */
    typical?: Typical;
    /** The run's credits spent or in use (CreditBudget.spent) once this test settled, for the progress line. */
    creditsUsed?: number;
  }

  export interface ProvidedContext {
    /** The run's grant of the credit budget in the order of value (run.ts, from the plan), when it made one. */
    creditPlan?: CreditPlan;
  }
}

/**
 * What `run` tells the worker of the plan's budget: credits held per test name, and the budget that would
 * run each test not granted.
 */
export interface CreditPlan {
  readonly holds: Readonly<Record<string, number>>;
  readonly wouldRunAt: Readonly<Record<string, number>>;
}

export interface ConformanceSpec {
  readonly covers: readonly RequirementId[];
  /**
   * Capabilities the test needs beyond plain HTTP with one key (defaults to the union of the covered
   * requirements' needs).
   */
  readonly needs?: readonly Capability[];
  /** Credits the test may spend at most. */
  readonly credits?: number;
  /** Requests it makes against each documented limit at most, on a target at documented limits. */
  readonly starts?: number;
  readonly polls?: number;
  readonly uploads?: number;
  readonly timeoutMs?: number;
  /** What the test is worth when credits are short (budget-order.ts): the happy path and the ledger go first. */
  readonly value?: Value;
  /**
   * What it typically sends and spends against a conforming target at the documented limits and the
   * run's profile (see `profiledRuns`), where that is less than the bounds above: the plan's estimate
   * of the run's credits and wall time (estimate.ts). Never a bound; nothing is enforced by it.
   */
  readonly typical?: Typical;
}

/**
 * The runs `t.check(property, numRuns)` makes at the run's profile: a quarter of them, at least one, in the
 * quick profile.
 */
export function profiledRuns(
  numRuns: number,
  config: Pick<SuiteConfig, 'profile' | 'numRuns'> = inject('suiteConfig'),
): number {
  return config.numRuns ?? (config.profile === 'quick' ? Math.max(1, Math.ceil(numRuns / 4)) : numRuns);
}

let targetPromise: Promise<SuiteTarget> | undefined;

// Rate-limit waits happen in this worker; the progress line lives in the main process.
forwardProgressEvents();
// A stopped run (Ctrl-C, SIGTERM, the wall-time bound) stops every request of this worker at once.
stopOnSignals();

/** The run's target, connected once. */
export function suiteTarget(): Promise<SuiteTarget> {
  // In a parallel embedded run, the instance of the server that is this worker's own (worker-instance.ts).
  targetPromise ??= connectTarget(
    configOfWorker(inject('suiteConfig'), inject('embeddedInstances'), process.env.VITEST_POOL_ID),
    {
      creditHolds: creditPlan()?.holds ?? {},
    },
  );
  return targetPromise;
}

export interface ConformanceContext {
  readonly target: SuiteTarget;
  readonly vitest: TestContext;
  /** Skips the rest of the test, with the reason recorded. */
  skip(reason: string): never;
  /**
   * Runs `assertion` as a rule of requirement `id`: when it throws, `id` alone fails and the rest of
   * the test's requirements are inconclusive. Assert only what the spec's words demand of `id`.
   */
  must(id: RequirementId, assertion: () => void): void;
  /** Stops the test as inconclusive (no verdict on what it covers): a precondition of the run's own did not hold. */
  inconclusive(reason: string): never;
  /** Records what the target chose on a point the spec leaves open; never judged. */
  choose(point: string, value: string, requirement?: RequirementId): void;
  /**
   * Ends the test at once as inconclusive when the run learned `fact` (run-facts.ts), which rules out
   * what it `needs`: the reason names the fact and the test that learned it.
   */
  unlessLearned(fact: FactName, needs: string): void;
  /**
   * With test control, a fresh account of the test's own at the raised limits (isolated balance and
   * uploads); otherwise the primary.
   */
  ownAccount(): Promise<Actor>;
  /** Reserves credits from the run's budget, or skips the test with the reason. */
  reserve(credits: number): void;
  /** Runs a fast-check property with the run's seed (and replay path), recording the counterexample. */
  check<Ts extends [unknown, ...unknown[]]>(
    property: fc.IAsyncPropertyWithHooks<Ts> | fc.IAsyncProperty<Ts>,
    numRuns: number,
  ): Promise<void>;
}

let planPromise: CreditPlan | undefined | null = null;
function creditPlan(): CreditPlan | undefined {
  if (planPromise === null) planPromise = inject('creditPlan');
  return planPromise;
}

/**
 * What settles a test's credits when it ends: what it reserved is replaced by what it really spent,
 * where the run can tell (the spend guard's balances or count, on a target without test control).
 * With test control every test spends from accounts of its own, and its reservations stand.
 */
async function settlement(target: SuiteTarget, cost: Cost): Promise<() => Promise<void>> {
  const guard = target.spendGuard;
  if (cost.credits === 0 || !guard) return async () => {};
  const reservedBefore = target.budget.spent;
  let spentBefore: number;
  try {
    spentBefore = await guard.spent();
  } catch {
    // No reading now: the test's reservations will stand, on the safe side.
    return async () => {};
  }
  return async () => {
    const reservedByIt = target.budget.spent - reservedBefore;
    try {
      target.budget.settle(reservedByIt, (await guard.spent()) - spentBefore);
    } catch {
      // A balance that cannot be read now leaves the reservations standing: the budget stays on the safe side.
    }
  };
}

/** Defines one conformance test. */
export function conformance(name: string, spec: ConformanceSpec, fn: (t: ConformanceContext) => Promise<void>): void {
  const needs = spec.needs ?? [...new Set(spec.covers.flatMap((id) => requirement(id).needs))];
  const cost: Cost = {
    credits: spec.credits ?? 0,
    starts: spec.starts ?? 0,
    polls: spec.polls ?? 0,
    uploads: spec.uploads ?? 0,
  };
  const timeout = allowanceMs(cost, spec.timeoutMs);
  const declared = {
    requirements: [...spec.covers],
    needs: [...needs],
    cost,
    value: spec.value ?? 'rest',
    allowanceMs: timeout,
    ...(spec.typical && { typical: spec.typical }),
  };
  test(name, { timeout, meta: declared }, async (vitest) => {
    const meta = vitest.task.meta;
    stopOnCancel(vitest.signal, (reason) => (meta.inconclusive ??= interruptedReason(reason)));
    const skip = (reason: string): never => {
      meta.skipReason = reason;
      return vitest.skip(reason);
    };
    const stoppedBefore = runStopped();
    if (stoppedBefore !== undefined) skip(`not run: the run was interrupted (${stoppedBefore})`);
    const target = await suiteTarget();
    // A test that declares it spends nothing runs at any budget: its starts reserve nothing (spend-guard.ts).
    target.spendGuard?.spendsNothing(cost.credits === 0);
    // Credits held for this test (the plan granted them in the order of value) are now its own, or
    // free for later tests if it skips; a test granted none runs when what is left after the holds
    // of the tests still to come is enough.
    const budget = target.budget;
    budget.release(vitest.task.fullTestName);
    for (const need of needs) {
      const offered = target.offers.get(need);
      if (offered !== true) skip(`needs ${need}: ${offered ?? 'not offered'}`);
    }
    if (cost.credits > budget.left) {
      const wouldRunAt = creditPlan()?.wouldRunAt[vitest.task.fullTestName];
      skip(
        `needs up to ${cost.credits} credits; ${budget.describe()}${wouldRunAt === undefined ? '' : ` (a budget of ${wouldRunAt} would run it)`}`,
      );
    }
    const settle = await settlement(target, cost);

    const evidence = beginEvidence();
    const context: ConformanceContext = {
      target,
      vitest,
      skip,
      ownAccount: () =>
        target.control
          ? target.freshAccount({
              starts: raisedLimits.startsPerMinute,
              polls: raisedLimits.pollsPerMinute,
              uploads: raisedLimits.uploadsPerMinute,
            })
          : Promise.resolve(target.primary),
      must,
      inconclusive(reason) {
        throw new Inconclusive(reason);
      },
      choose(point, value, requirement) {
        (meta.choices ??= []).push({ point, value, ...(requirement !== undefined && { requirement }) });
      },
      unlessLearned(fact, needs) {
        const known = runFacts().known(fact);
        if (known) throw new Inconclusive(becauseOf(known, needs));
      },
      reserve(credits) {
        if (!budget.tryReserve(credits)) skip(`needs ${credits} more credit(s); ${budget.describe()}`);
      },
      async check(property, numRuns) {
        const config = target.config;
        const runs = profiledRuns(numRuns, config);
        const details = await fc.check(property, {
          seed: config.seed,
          numRuns: runs,
          ...(config.path !== undefined && { path: config.path }),
          endOnFailure: false,
        });
        if (details.failed && details.errorInstance instanceof BudgetExhausted) skip(details.errorInstance.message);
        if (details.failed && details.errorInstance instanceof Inconclusive) throw details.errorInstance;
        if (details.failed) {
          // The shrunk counterexample and the replay line, not fast-check's whole report.
          meta.counterexample = propertyLines({
            ...(details.counterexample !== null && { counterexample: fc.stringify(details.counterexample) }),
            shrunk: details.numShrinks,
            seed: details.seed,
            ...(details.counterexamplePath !== null && { path: details.counterexamplePath }),
          });
          const cause = details.errorInstance;
          if (cause instanceof RuleBroken) {
            const message = `${cause.message}\n${meta.counterexample}`;
            throw new RuleBroken(cause.requirement, message, cause.expected, cause.actual, { cause });
          }
          const said = cause instanceof Error ? assertionSentence(cause.message) : 'the property failed';
          throw new Error(`${said}\n${meta.counterexample}`, { cause });
        }
      },
    };
    try {
      await fn(context);
      const stopped = runStopped();
      if (stopped !== undefined) throw new Inconclusive(interruptedReason(stopped));
    } catch (thrown) {
      // Once the run stops, a test that was running judges nothing: its requests were cut short.
      const stopped = runStopped();
      const error = stopped !== undefined && !isSkip(thrown) ? new Inconclusive(interruptedReason(stopped)) : thrown;
      if (error instanceof BudgetExhausted) skip(error.message);
      if (error instanceof RuleBroken) {
        (meta.broken ??= []).push({
          requirement: error.requirement,
          message: error.message.replace(/^\[[A-Z0-9-]+\] /, ''),
          ...(error.expected !== undefined && { expected: error.expected }),
          ...(error.actual !== undefined && { actual: error.actual }),
        });
        throw error;
      }
      if (error instanceof Inconclusive) {
        // Said once, however often the same error passed through here (a property rethrows it).
        meta.inconclusive = error.message.replace(/^(?:inconclusive: )+/, '');
        error.message = `inconclusive: ${meta.inconclusive}`;
        throw error;
      }
      // The verdict names the rules it breaks, so a red line in any log says which requirement failed.
      if (error instanceof Error) error.message = `[${spec.covers.join(', ')}] ${error.message}`;
      throw error;
    } finally {
      await settle();
      meta.creditsUsed = budget.spent;
      meta.requestsCounted = requestsCounted(target.pacer.counts());
      endEvidence();
      meta.findings = evidence.findings;
      meta.answered = evidence.exchanges.filter((ex) => ex.response !== undefined).length;
      meta.evidence = evidence.exchanges.slice(-30).map((ex) => ({
        curl: toCurl(ex.request, target.secrets),
        status: ex.response?.status ?? null,
        body: ex.response?.text.slice(0, 500) ?? ex.error ?? '',
      }));
    }
    const errors = evidence.findings.filter((f) => f.severity === 'error');
    if (errors.length > 0) {
      throw new Error(
        `${errors.length} check(s) failed on the exchanges of this test:\n` +
          errors.map((f) => `- [${f.requirement}] ${f.title}\n  ${f.message.replaceAll('\n', '\n  ')}`).join('\n'),
      );
    }
  });
}

function interruptedReason(stopped: string): string {
  return `the run stopped before this test finished (${stopped})`;
}

/** vitest's own skip (`ctx.skip`), thrown through the test. */
function isSkip(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'VITEST_PENDING';
}
