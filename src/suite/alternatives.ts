/**
 * Records which of the spec's alternatives (contract/alternatives.ts: JPEG or PNG, URL or uploaded id,
 * POST /tryons or /tryons/sync, success or failed) a test's checks of a requirement met, in
 * `task.meta.alternatives`, so the report can say what was seen and mark a requirement checked on
 * only some of them as partially exercised.
 */
import type { Alternative, Dimension } from '../contract/alternatives.ts';
import type { RequirementId } from '../contract/requirements.ts';
import type { ConformanceContext } from './conformance.ts';

/** How often a test's checks of one requirement met one alternative. */
export interface AlternativeSeen {
  readonly requirement: RequirementId;
  readonly dimension: Dimension;
  readonly alternative: string;
  count: number;
}

declare module 'vitest' {
  interface TaskMeta {
    /** The spec's alternatives the test's checks met, per requirement (suite/alternatives.ts). */
    alternatives?: AlternativeSeen[];
  }
}

/**
 * Notes that the checks of `requirements` just ran on `alternative` of `dimension`. Call it where
 * the checks ran, with what the target produced (the result's bytes, the endpoint that answered),
 * not with what the test hoped for.
 */
export function exercised<D extends Dimension>(
  t: Pick<ConformanceContext, 'vitest'>,
  dimension: D,
  alternative: Alternative<D>,
  requirements: readonly RequirementId[],
): void {
  const seen = (t.vitest.task.meta.alternatives ??= []);
  for (const requirement of requirements) {
    const entry = seen.find(
      (s) => s.requirement === requirement && s.dimension === dimension && s.alternative === alternative,
    );
    if (entry) entry.count += 1;
    else seen.push({ requirement, dimension, alternative, count: 1 });
  }
}
