/**
 * Min, median and max of repeated measurements: how every figure of the benchmarks is published
 * (issue 15: "every figure as min/median/max over the interleaved runs").
 */
export interface Spread {
  readonly n: number;
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

/**
 * The spread of the finite values, rounded to `digits` decimals; undefined when there is none.
 * The median of an even count is the mean of the two middle values.
 */
export function spread(values: readonly number[], digits = 2): Spread | undefined {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return undefined;
  const mid = Math.floor(n / 2);
  const median = n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const r = (x: number) => Math.round(x * 10 ** digits) / 10 ** digits;
  return { n, min: r(sorted[0] as number), median: r(median), max: r(sorted[n - 1] as number) };
}

/** Ratios of two series measured side by side: a[i] / b[i] for each i where both are finite and b[i] > 0. */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (Number.isFinite(x) && Number.isFinite(y) && y > 0) out.push(x / y);
  }
  return out;
}
