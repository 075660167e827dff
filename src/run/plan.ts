/**
 * The plan of a run, before anything is sent: the requirements exercised and skipped (and why), the
 * credits it may spend, the least wall time the rate limits allow, and the expected cost (estimate.ts).
 * `run --plan` prints the estimate as one line scripts may read: "Estimate: 6 credits, 7 min 20 s (…)".
 */
import type { PlannedCost } from '../report/cost.ts';
import { requirement, requirementIds, type Capability, type RequirementId } from '../contract/requirements.ts';
import { rateBuckets, rateWindowSeconds } from '../contract/rate-limits.ts';
import { valueRanks, valueTitles, type Cost, type Typical, type Value } from '../suite/cost.ts';
import { allotCredits, type Allotment } from './budget-order.ts';
import type { Offers } from '../suite/capabilities.ts';
import { fileOrder } from './file-order.ts';
import { estimateOf, pacedLimits, wallBoundOf, type EstimateInputs, type PlanEstimate } from './plan-estimate.ts';

export interface PlannedTest {
  readonly name: string;
  readonly file: string;
  readonly requirements: readonly RequirementId[];
  readonly needs: readonly Capability[];
  readonly cost: Cost;
  /** What the test is worth when credits are short (budget-order.ts); default `rest`. */
  readonly value?: Value;
  /** The test's time allowance (allowance.ts), for the run's wall-time bound. */
  readonly allowanceMs?: number;
  /** What it typically sends and spends (estimate.ts), for the estimate; its cost when absent. */
  readonly typical?: Typical;
}

export type { EstimateInputs, PlanEstimate } from './plan-estimate.ts';
export { setupAllowanceSeconds, wallBoundOf } from './plan-estimate.ts';

export interface Plan {
  readonly tests: ReadonlyArray<PlannedTest & { readonly skip?: string }>;
  readonly exercised: readonly RequirementId[];
  readonly skipped: ReadonlyArray<{ readonly id: RequirementId; readonly reason: string }>;
  /** Requirements no test can observe over HTTP, with the catalogue's reason. */
  readonly notObservable: ReadonlyArray<{ readonly id: RequirementId; readonly reason: string }>;
  /** Observable requirements that no test of this version covers. */
  readonly uncovered: readonly RequirementId[];
  readonly credits: number;
  readonly requests: Readonly<Record<'starts' | 'polls' | 'uploads', number>>;
  /** Least wall time the documented limits allow for those requests, in seconds. */
  readonly leastWallSeconds: number;
  /**
   * The run's wall-time bound, in seconds: three times the estimate and at least ten minutes more (never
   * past the allowances of the tests that run, one after another), plus the set-up. A run that reaches
   * it stops like an interrupted one (exit 2), with a report of what ran and which tests were cut.
   */
  readonly wallBoundSeconds: number;
  /** How the credit budget is granted, in the order of value; tests not granted any wait for leftovers. */
  readonly allotment: Allotment;
  readonly creditBudget: number;
  /** The expected credits and wall time (estimate.ts), next to the bounds `credits` and `wallBoundSeconds`. */
  readonly estimate: PlanEstimate;
}

/** Computes the plan of `tests` against what the configuration offers and the credit budget. */
export function makePlan(
  tests: readonly PlannedTest[],
  offers: Offers,
  creditBudget: number,
  limitsRaised: boolean,
  inputs: EstimateInputs = {},
): Plan {
  const capable = tests.map((test) => {
    const missing = test.needs.find((need) => offers.get(need) !== true);
    return missing ? { ...test, skip: `needs ${missing}: ${String(offers.get(missing))}` } : test;
  });
  const allotment = allotCredits(
    capable
      .filter((t) => !('skip' in t))
      .map((t) => ({ name: t.name, credits: t.cost.credits, value: t.value ?? 'rest' })),
    creditBudget,
  );
  const refused = new Map(allotment.refused.map((r) => [r.name, r]));
  const planned = capable.map((test): PlannedTest & { readonly skip?: string } => {
    const r = refused.get(test.name);
    if ('skip' in test || !r) return test;
    return {
      ...test,
      skip: `needs up to ${r.credits} credits; the budget of ${creditBudget} goes to higher-value tests first (a budget of ${r.budgetThatRunsIt} would run it)`,
    };
  });
  const credits = allotment.total;
  const run = planned.filter((t) => !('skip' in t));
  const exercised = new Set(run.flatMap((t) => t.requirements));
  const skippedReasons = new Map<RequirementId, string>();
  for (const t of planned) {
    if (!('skip' in t) || t.skip === undefined) continue;
    for (const id of t.requirements) if (!exercised.has(id) && !skippedReasons.has(id)) skippedReasons.set(id, t.skip);
  }
  const covered = new Set(tests.flatMap((t) => t.requirements));
  const notObservable = requirementIds.flatMap((id) => {
    const reason = requirement(id).notObservable;
    return reason !== undefined && !covered.has(id) ? [{ id, reason }] : [];
  });
  const uncovered = requirementIds.filter((id) => !covered.has(id) && requirement(id).notObservable === undefined);
  const requests = {
    starts: sum(run, 'starts'),
    polls: sum(run, 'polls'),
    uploads: sum(run, 'uploads'),
  };
  const limits = pacedLimits(inputs.limits);
  const leastWallSeconds = limitsRaised
    ? 0
    : Math.max(...rateBuckets.map((b) => Math.max(0, Math.ceil(requests[b] / limits[b]) - 1) * rateWindowSeconds));
  // Tests the budget did not grant run when enough is left at their turn: the estimate plays them too.
  const estimate = estimateOf(
    inRunOrder(planned.filter((t) => !('skip' in t) || refused.has(t.name))),
    allotment,
    creditBudget,
    limitsRaised,
    inputs,
  );
  const allowances = Math.ceil(run.reduce((n, t) => n + (t.allowanceMs ?? 0), 0) / 1000);
  return {
    tests: planned,
    exercised: [...exercised],
    skipped: [...skippedReasons].map(([id, reason]) => ({ id, reason })),
    notObservable,
    uncovered,
    credits,
    requests,
    leastWallSeconds,
    wallBoundSeconds: wallBoundOf(estimate.wallSeconds, allowances),
    allotment,
    creditBudget,
    estimate,
  };
}

/** The run order: files as the sequencer runs them (file-order.ts), tests in the order of their file. */
export function inRunOrder<T extends { readonly file: string }>(tests: readonly T[]): T[] {
  const rank = (file: string): number => {
    const index = fileOrder.indexOf(/([^/]+)\.suite\.[jt]s$/.exec(file)?.[1] ?? '');
    return index === -1 ? fileOrder.length : index;
  };
  return tests
    .map((t, i) => ({ t, i }))
    .sort((a, b) => rank(a.t.file) - rank(b.t.file) || a.i - b.i)
    .map((x) => x.t);
}

function sum(tests: readonly PlannedTest[], key: 'starts' | 'polls' | 'uploads'): number {
  return tests.reduce((n, t) => n + t.cost[key], 0);
}

/** How the bound is made and what reaching it does, in the plan's words. */
const boundWords =
  'three times the estimate and at least 10 min more, with the set-up; ' +
  'the run stops there, with a partial report of what ran and exit 2';

/** The plan as text for a terminal. */
export function formatPlan(plan: Plan): string {
  const lines = [
    `Plan: ${plan.tests.length} tests, ${plan.tests.filter((t) => !t.skip).length} to run${mayAlsoRun(plan)}`,
    `  requirements exercised: ${plan.exercised.length} of ${requirementIds.length}`,
    `  credits the run may spend: at most ${plan.credits} of the budget of ${plan.creditBudget}`,
    `  requests against the limits: ${plan.requests.starts} starts, ${plan.requests.polls} polls, ${plan.requests.uploads} uploads`,
    `  least wall time the documented limits allow: ${formatSeconds(plan.leastWallSeconds)} (for every declared request; tests skipped at run time send fewer)`,
    `  wall-time bound: ${formatSeconds(plan.wallBoundSeconds)} (${boundWords})`,
    formatEstimate(plan.estimate),
    '',
    ...formatBudget(plan),
    '',
    ...formatCapabilityCosts(plan),
    `Skipped (${plan.skipped.length}):`,
    ...plan.skipped.map((s) => `  ${s.id}: ${s.reason}`),
    '',
    `Not observable over HTTP (${plan.notObservable.length}):`,
    ...plan.notObservable.map((s) => `  ${s.id}: ${s.reason}`),
    '',
    `Observable but not covered by a test of this version (${plan.uncovered.length}):`,
    ...plan.uncovered.map((id) => `  ${id}`),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The tests the budget did not grant that still run when enough is left at their turn (a target that
 * charges less than they declare): " (and up to 3 more, on credits left at their turn)", or nothing.
 */
export function mayAlsoRun(plan: Pick<Plan, 'allotment'>): string {
  const n = plan.allotment.refused.length;
  return n === 0 ? '' : ` (and up to ${n} more, on credits left at their turn)`;
}

/**
 * What each missing capability costs: the tests skipped for it, and the requirements that only those
 * tests would exercise (a requirement another running test covers is not lost, but is checked in fewer ways).
 */
export function formatCapabilityCosts(plan: Plan): string[] {
  const byNeed = new Map<string, Array<PlannedTest & { readonly skip?: string }>>();
  for (const t of plan.tests) {
    const need = /^needs ([a-z-]+):/.exec(t.skip ?? '')?.[1];
    if (need) byNeed.set(need, [...(byNeed.get(need) ?? []), t]);
  }
  if (byNeed.size === 0) return [];
  const exercised = new Set(plan.exercised);
  const lines = ['What each missing capability costs:'];
  for (const [need, tests] of byNeed) {
    const lost = [...new Set(tests.flatMap((t) => t.requirements))].filter((id) => !exercised.has(id));
    lines.push(
      `  ${need}: ${tests.length} test${tests.length === 1 ? '' : 's'} skipped; ${lost.length === 0 ? 'no requirement lost, but fewer ways to check some' : `requirements not exercised without it: ${lost.join(', ')}`}`,
    );
  }
  return [...lines, ''];
}

/** The budget in the order of value, and what a larger one would add. */
function formatBudget(plan: Plan): string[] {
  const { granted, refused } = plan.allotment;
  const lines = [`Credit budget, in the order of value (${plan.credits} of ${plan.creditBudget} granted up front):`];
  for (const value of valueRanks) {
    const mine = granted.filter((g) => g.value === value);
    if (mine.length > 0)
      lines.push(`  ${valueTitles[value]}: ${mine.map((g) => `${g.name} (${g.credits})`).join('; ')}`);
  }
  if (granted.length === 0) lines.push('  (no test that spends credits is granted any)');
  if (refused.length > 0) {
    lines.push(
      '',
      'A larger budget would add (each runs at the budget shown; a test not granted credits still runs if enough is left at its turn):',
    );
    for (const r of refused)
      lines.push(`  ${r.budgetThatRunsIt} credits: ${r.name} (${r.credits}, ${valueTitles[r.value]})`);
  }
  return lines;
}

/**
 * What the plan says the run will cost, for the report's planned against actual (src/report/cost.ts).
 * The credit bound is the budget, or what the tests that can run declare if that is less: tests not
 * granted credits up front may still run on what is left at their turn, never past the budget.
 */
export function plannedCostOf(plan: Plan): PlannedCost {
  const declared = plan.tests
    .filter((t) => !/^needs [a-z-]+:/.test(t.skip ?? ''))
    .reduce((n, t) => n + t.cost.credits, 0);
  return {
    estimate: { credits: plan.estimate.credits, wallSeconds: plan.estimate.wallSeconds },
    bound: { credits: Math.min(plan.creditBudget, declared), wallSeconds: plan.wallBoundSeconds },
    basis: plan.estimate.basis,
  };
}

/** The estimate's line (the format is described at the top of this file). */
export function formatEstimate(e: PlanEstimate): string {
  return `  Estimate: ${e.credits} credit${e.credits === 1 ? '' : 's'}, ${formatSeconds(e.wallSeconds)} (expected, not a bound; ${e.basis})`;
}

export function formatSeconds(s: number): string {
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
