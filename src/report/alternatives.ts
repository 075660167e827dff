/**
 * The spec's alternatives seen per requirement: what the tests' checks met (`task.meta.alternatives`,
 * suite/alternatives.ts) over every test, and those no check met. A requirement that passes having met only
 * some is marked `coverage: 'partial'`: its verdict stays `pass` (summaries, compare and exit statuses keep
 * their meaning), and every format shows "pass (partially exercised: only JPEG seen)".
 */
import { alternativesOf } from '../contract/alternatives.ts';
import type { DimensionSeen, Ran, RequirementResult } from './types.ts';

/** The alternatives met per requirement id, over every test that ran (failed and passed alike). */
export function alternativesSeen(ran: readonly Ran[]): ReadonlyMap<string, readonly DimensionSeen[]> {
  const counts = new Map<string, Map<string, Map<string, number>>>();
  for (const r of ran) {
    for (const a of r.meta.alternatives ?? []) {
      const byDimension = counts.get(a.requirement) ?? new Map<string, Map<string, number>>();
      counts.set(a.requirement, byDimension);
      const byAlternative = byDimension.get(a.dimension) ?? new Map<string, number>();
      byDimension.set(a.dimension, byAlternative);
      byAlternative.set(a.alternative, (byAlternative.get(a.alternative) ?? 0) + a.count);
    }
  }
  const out = new Map<string, DimensionSeen[]>();
  for (const [id, byDimension] of counts) {
    out.set(
      id,
      [...byDimension]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([dimension, byAlternative]) => {
          const named = alternativesOf(dimension);
          const order = [...named, ...[...byAlternative.keys()].filter((k) => !named.includes(k)).sort()];
          return {
            dimension,
            seen: order
              .filter((alt) => byAlternative.has(alt))
              .map((alternative) => ({ alternative, count: byAlternative.get(alternative) ?? 0 })),
            unseen: named.filter((alt) => !byAlternative.has(alt)),
          };
        }),
    );
  }
  return out;
}

/** The requirement with the alternatives its checks met, marked partial when it passed on only some of them. */
export function withAlternatives(
  result: RequirementResult,
  seen: readonly DimensionSeen[] | undefined,
): RequirementResult {
  if (seen === undefined || seen.length === 0) return result;
  const partial = result.verdict === 'pass' && seen.some((d) => d.unseen.length > 0);
  return { ...result, alternatives: seen, ...(partial && { coverage: 'partial' as const }) };
}

/** "JPEG 14, PNG 9" */
export function seenText(d: DimensionSeen): string {
  return d.seen.map((s) => `${s.alternative} ${s.count}`).join(', ');
}

/** "only JPEG seen" or "only JPEG seen; only uploaded id seen": why a pass is partial. */
export function partialText(r: Pick<RequirementResult, 'alternatives'>): string {
  return (r.alternatives ?? [])
    .filter((d) => d.unseen.length > 0)
    .map((d) =>
      d.seen.length === 0
        ? `no ${d.dimension} seen`
        : `only ${d.seen.map((s) => s.alternative).join(', ')} seen (${d.dimension}; never ${d.unseen.join(', ')})`,
    )
    .join('; ');
}

/**
 * The verdict as every format writes it: "pass (partially exercised: only JPEG seen (result format; never
 * PNG))" for a partial pass.
 */
export function verdictText(
  r: Pick<RequirementResult, 'verdict' | 'coverage' | 'alternatives'>,
  label: string,
): string {
  return r.coverage === 'partial' ? `${label} (partially exercised: ${partialText(r)})` : label;
}
