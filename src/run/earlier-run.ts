/**
 * An earlier run of the same kind, as the plan's estimate goes by it (estimate.ts, plan.ts). With
 * test control the limits are raised and the machine, not the limits, decides how long a run takes:
 * the best guess is what the same tests took last time, from the report.json of an earlier run
 * against the same kind of target (embedded or not) at the same profile.
 */
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

export interface EarlierRun {
  /** Where it comes from, for the plan's words ("reports/latest/report.json"). */
  readonly source: string;
  readonly embedded: boolean;
  readonly profile: string;
  readonly durationMs: number;
  readonly tests: ReadonlyArray<{ readonly name: string; readonly state: string; readonly durationMs: number }>;
}

/**
 * The wall time `names` took in `earlier`: its whole duration, less the share of the tests that ran
 * then and will not now. Nothing when it ran none of them, or missed more than a tenth of them.
 */
export function estimateFromEarlier(
  earlier: EarlierRun,
  names: readonly string[],
): { wallSeconds: number; basis: string } | undefined {
  const ran = earlier.tests.filter((t) => t.state !== 'skipped');
  const byName = new Map(ran.map((t) => [t.name, t]));
  const found = names.filter((n) => byName.has(n));
  if (found.length === 0 || found.length < names.length * 0.9) return undefined;
  const all = ran.reduce((n, t) => n + t.durationMs, 0);
  const mine = found.reduce((n, name) => n + (byName.get(name)?.durationMs ?? 0), 0);
  const share = all === 0 ? 1 : mine / all;
  return {
    wallSeconds: Math.round((earlier.durationMs / 1000) * share),
    basis: `with test control the machine decides the wall time: the earlier run in ${earlier.source} took ${Math.round(earlier.durationMs / 1000)} s for ${found.length === ran.length ? 'the same tests' : `${found.length} of these ${names.length} tests (${Math.round(share * 100)}% of its test time)`}`,
  };
}

/**
 * The first report among `<root>/latest/report.json` and `reports/reference/report.json` that
 * ran against the same kind of target (`embedded`) at `profile`; nothing when none does.
 */
export async function readEarlierRun(
  candidates: readonly string[],
  embedded: boolean,
  profile: string,
): Promise<EarlierRun | undefined> {
  for (const file of candidates) {
    try {
      const r = JSON.parse(await readFile(file, 'utf8')) as {
        target?: { embedded?: boolean };
        profile?: string;
        durationMs?: number;
        tests?: EarlierRun['tests'];
        interrupted?: unknown;
      };
      if (
        r.target?.embedded !== embedded ||
        r.profile !== profile ||
        typeof r.durationMs !== 'number' ||
        !Array.isArray(r.tests) ||
        r.interrupted !== undefined
      )
        continue;
      return {
        source: relative(process.cwd(), file) || file,
        embedded,
        profile,
        durationMs: r.durationMs,
        tests: r.tests,
      };
    } catch {
      // No such report, or not one we read: try the next.
    }
  }
  return undefined;
}

/** Where earlier reports are looked for: the latest run under the report root, then the repository's reference run. */
export function earlierRunCandidates(reportRoot: string, packageRoot: string): string[] {
  return [join(reportRoot, 'latest', 'report.json'), join(packageRoot, 'reports', 'reference', 'report.json')];
}
