/**
 * Which fixed one-minute windows could explain the requests a limit let through. "12 per minute"
 * may be counted in a rolling minute or in fixed minutes; a fixed window whose boundary falls inside
 * a burst lets up to twice the limit through in a few seconds, and the suite records that as the
 * target's choice. So a burst of limit + 1 requests within a minute only says that a window boundary
 * lies inside it; the requests break the limit when no placement of the boundaries (no phase) fits
 * every such burst. Phases are kept as intervals of [0, window).
 */

export type Phases = ReadonlyArray<readonly [number, number]>;

/** Every phase: nothing seen yet rules any out. */
export const allPhases = (windowMs: number): Phases => [[0, windowMs]];

/**
 * The phases left once a boundary must lie in (from, to]: a burst's first request could not have been
 * counted later than `from`'s start nor its last earlier than `to`'s end, so the arc is wide enough.
 */
export function narrowPhases(phases: Phases, from: number, to: number, windowMs: number): Phases {
  if (to - from >= windowMs) return phases;
  const start = mod(from, windowMs);
  const end = start + (to - from);
  // The arc as at most two pieces of [0, window).
  const arc: Array<[number, number]> =
    end <= windowMs
      ? [[start, end]]
      : [
          [start, windowMs],
          [0, end - windowMs],
        ];
  const out: Array<[number, number]> = [];
  for (const [a, b] of phases)
    for (const [c, d] of arc) {
      const lo = Math.max(a, c);
      const hi = Math.min(b, d);
      if (lo < hi) out.push([lo, hi]);
    }
  return out;
}

function mod(n: number, m: number): number {
  return ((n % m) + m) % m;
}

/** The phases widened by `by` on each side: what stays possible once times are known only within ±by. */
export function widenPhases(phases: Phases, by: number, windowMs: number): Phases {
  if (by <= 0 || phases.length === 0) return phases;
  if (by * 2 >= windowMs) return allPhases(windowMs);
  const pieces = phases.flatMap(([a, b]) => narrowPhases(allPhases(windowMs), a - by, b + by, windowMs));
  const sorted = [...pieces].sort((x, y) => x[0] - y[0]);
  const out: Array<[number, number]> = [];
  for (const [a, b] of sorted) {
    const last = out.at(-1);
    if (last !== undefined && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}
