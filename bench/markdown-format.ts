/** Number formatting shared by the renderers of reports/bench/bench.md. */
import type { Spread } from './spread.ts';

export const fmt = (n: number | undefined | null, digits = 0): string =>
  n === undefined || n === null || !Number.isFinite(n)
    ? '–'
    : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** "median (min–max)", or the one value when all are equal; `suffix` after each number. */
export const fmtSpread = (s: Spread | undefined, digits = 0, suffix = ''): string => {
  if (!s) return '–';
  const median = `${fmt(s.median, digits)}${suffix}`;
  return s.min === s.max ? median : `${median} (${fmt(s.min, digits)}–${fmt(s.max, digits)}${suffix})`;
};

/** autocannon's latencies are whole milliseconds: 0 means under 1 ms. */
export const fmtLatency = (s: Spread | undefined): string => {
  if (!s) return '–';
  const one = (n: number) => (n === 0 ? '<1' : fmt(n, 1));
  return s.min === s.max ? one(s.median) : `${one(s.median)} (${one(s.min)}–${one(s.max)})`;
};

export const seconds = (s: number | undefined): string => {
  if (s === undefined || !Number.isFinite(s)) return '–';
  const m = Math.floor(s / 60);
  return m > 0 ? `${m} min ${Math.round(s - m * 60)} s` : `${Math.round(s * 10) / 10} s`;
};

export const ratio = (a: number | undefined, b: number | undefined): string =>
  a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || a === 0 || b === 0
    ? '–'
    : `${(a / b).toFixed(2)}×`;

/** (estimate − actual) ÷ actual, as a signed percentage; '–' when either is missing. */
export const errorPercent = (estimate: number | undefined, actual: number | undefined): string => {
  if (
    estimate === undefined ||
    actual === undefined ||
    !Number.isFinite(estimate) ||
    !Number.isFinite(actual) ||
    actual === 0
  )
    return '–';
  const p = ((estimate - actual) / actual) * 100;
  return `${p >= 0 ? '+' : '−'}${Math.abs(p).toFixed(1)} %`;
};
