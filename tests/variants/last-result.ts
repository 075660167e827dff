/**
 * The last `npm run variants` result, kept in reports/variants/last.json (not committed), so that
 * `npm run mutants` can print the specificity beside the mutation score without running variants.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface LastVariantsResult {
  readonly at: string;
  readonly seed: number;
  /** `all`, `quick`, or the --only list. */
  readonly scope: string;
  readonly passed: number;
  readonly total: number;
  readonly variants: ReadonlyArray<{
    readonly name: string;
    readonly class: string;
    readonly passed: boolean;
    readonly failed: readonly string[];
    readonly seconds: number;
  }>;
}

export const lastResultPath = join(new URL('../../', import.meta.url).pathname, 'reports', 'variants', 'last.json');

export function writeLastResult(result: LastVariantsResult, path = lastResultPath): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`);
}

export function readLastResult(path = lastResultPath): LastVariantsResult | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LastVariantsResult;
  } catch {
    return undefined;
  }
}

/** One line for the mutants runner: the last measured specificity, or where to get it. */
export function specificityLine(path = lastResultPath): string {
  const last = readLastResult(path);
  if (!last)
    return 'Specificity: not measured here yet; `npm run variants` runs the suite against conforming variants (it must pass them all).';
  return `Specificity: ${last.passed}/${last.total} variants passed (last \`npm run variants\`, ${last.scope}, ${last.at}; rerun it after changing the suite)`;
}
