/**
 * The plan of a run, computed before anything is sent to the target (suite issue, "Capabilities and
 * plan"): which requirements will be exercised, which skipped and why, the credits the run may
 * spend, and the least wall time the documented rate limits allow.
 */
import { requirement, requirementIds, type Capability, type RequirementId } from '../spec/requirements.ts';
import type { Offers } from './capabilities.ts';
import type { Cost } from './conformance.ts';

export interface PlannedTest {
  readonly name: string;
  readonly file: string;
  readonly requirements: readonly RequirementId[];
  readonly needs: readonly Capability[];
  readonly cost: Cost;
}

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
}

/** Requests per rolling minute the spec documents. */
const perMinute = { starts: 12, polls: 60, uploads: 30 } as const;

/** Computes the plan of `tests` against what the configuration offers and the credit budget. */
export function makePlan(tests: readonly PlannedTest[], offers: Offers, creditBudget: number, limitsRaised: boolean): Plan {
  let credits = 0;
  const planned = tests.map((test) => {
    const missing = test.needs.find((need) => offers.get(need) !== true);
    if (missing) return { ...test, skip: `needs ${missing}: ${String(offers.get(missing))}` };
    if (credits + test.cost.credits > creditBudget) {
      return { ...test, skip: `needs up to ${test.cost.credits} credits; the budget of ${creditBudget} would be passed` };
    }
    credits += test.cost.credits;
    return test;
  });
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
  const leastWallSeconds = limitsRaised
    ? 0
    : Math.max(...(Object.keys(perMinute) as Array<keyof typeof perMinute>).map((b) => Math.max(0, Math.ceil(requests[b] / perMinute[b]) - 1) * 60));
  return {
    tests: planned,
    exercised: [...exercised],
    skipped: [...skippedReasons].map(([id, reason]) => ({ id, reason })),
    notObservable,
    uncovered,
    credits,
    requests,
    leastWallSeconds,
  };
}

function sum(tests: readonly PlannedTest[], key: 'starts' | 'polls' | 'uploads'): number {
  return tests.reduce((n, t) => n + t.cost[key], 0);
}

/** The plan as text for a terminal. */
export function formatPlan(plan: Plan): string {
  const lines = [
    `Plan: ${plan.tests.length} tests, ${plan.tests.filter((t) => !t.skip).length} to run`,
    `  requirements exercised: ${plan.exercised.length} of ${requirementIds.length}`,
    `  credits the run may spend: at most ${plan.credits}`,
    `  requests against the limits: ${plan.requests.starts} starts, ${plan.requests.polls} polls, ${plan.requests.uploads} uploads`,
    `  least wall time the documented limits allow: ${formatSeconds(plan.leastWallSeconds)} (for every declared request; tests skipped at run time send fewer)`,
    '',
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

function formatSeconds(s: number): string {
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
