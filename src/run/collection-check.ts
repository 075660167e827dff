/**
 * A run that planned from a kept collection (collection-cache.ts) checks it against the tests it
 * then collected itself: the same tests, each with the same declarations (requirements, needs,
 * cost, value, allowance, typical requests). Should they differ, the plan was not this run's, and
 * the run says so as an error of its own instead of passing on a plan made for other tests.
 */
import type { PlannedTest } from './plan.ts';

/**
 * What differs between the `kept` tests and those the run collected (`ran`), in a sentence, or
 * undefined when nothing does. In a run that stopped early (`partial`), only the files it
 * collected are compared: the others never loaded.
 */
export function collectionDifference(
  kept: readonly PlannedTest[],
  ran: readonly PlannedTest[],
  partial: boolean,
): string | undefined {
  const files = new Set(ran.map((t) => t.file));
  const expected = partial ? kept.filter((t) => files.has(t.file)) : kept;
  // Each test's declarations as one comparable string.
  const want = new Map(expected.map((t) => [t.name, stableJson(t)]));
  const got = new Map(ran.map((t) => [t.name, stableJson(t)]));
  const missing = [...want.keys()].filter((name) => !got.has(name));
  const added = [...got.keys()].filter((name) => !want.has(name));
  const changed = [...want.keys()].filter((name) => got.has(name) && got.get(name) !== want.get(name));
  if (missing.length + added.length + changed.length === 0) return undefined;
  const part = (label: string, names: string[]) =>
    names.length === 0
      ? []
      : [
          `${label} ${names.length} (${names
            .slice(0, 3)
            .map((n) => `"${n}"`)
            .join(', ')}${names.length > 3 ? ', …' : ''})`,
        ];
  return [
    ...part('planned, not in the run:', missing),
    ...part('in the run, not planned:', added),
    ...part('declared otherwise:', changed),
  ].join('; ');
}

/** JSON with every object's keys in a fixed order, so equal values give equal text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
        )
      : inner,
  );
}
