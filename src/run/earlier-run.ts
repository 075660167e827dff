/**
 * An earlier run of the same kind, as the plan's estimate goes by it (estimate.ts, plan.ts): what the
 * same tests took last time against the same target (or the embedded one) at the same profile, from
 * its report.json. It holds what no declaration can: this machine's speed with test control, and on a
 * target without it what the run learned there (try-ons that never finish, a mock's one answer) and
 * how it paced. Tests it did not run are estimated as the plan's model plays them.
 */
import { open, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

export interface EarlierTest {
  readonly name: string;
  readonly state: string;
  readonly durationMs: number;
  readonly skipReason?: string;
}

export interface EarlierRun {
  /** Where it comes from, for the plan's words ("reports/latest/report.json"). */
  readonly source: string;
  readonly embedded: boolean;
  readonly profile: string;
  readonly durationMs: number;
  readonly tests: readonly EarlierTest[];
  /** When it started (report.json's `startedAt`), to count a run once. */
  readonly startedAt?: string;
  /** What that run learned about the target (run-facts.ts), in words; its tests' durations carry the effect. */
  readonly learned?: readonly string[];
}

/** The target an earlier run must have checked to be one of the same kind. */
export interface RunKind {
  readonly embedded: boolean;
  readonly profile: string;
  /** The API base URL (a remote target's; an embedded one's port changes every run). */
  readonly baseUrl: string;
  readonly control: boolean;
}

/** The most reports looked at, and the most of one read: a report of 90 tests is about 200 kB. */
const maxCandidates = 25;
const maxReportBytes = 8 * 1024 * 1024;
/** The most facts named from one report, and the longest statement: a few are known, each a line. */
const maxFacts = 8;
const maxFactChars = 200;

/**
 * A skip that says nothing about how the test goes now: the budget or the grep of that run, or its
 * stop. Any other skip (a missing capability, a fact learned) happens again, as quickly.
 */
const skipOfThatRun = new RegExp(
  [
    /^needs (up to )?\d+ (more )?credit/,
    /^the credit budget of \d+ is used up/,
    /^not run: the run was interrupted/,
    /^not selected by --grep/,
    /^not run \(marked skip/,
  ]
    .map((r) => r.source)
    .join('|'),
);

/**
 * What the tests `steps` (the model's, in seconds) are expected to take, going by `earlier` where it ran
 * them; of `mayAlsoRun` (tests the budget did not grant that the model expects to skip), those that ran
 * then count too: a target that charged less than they declare leaves them the credits again.
 */
export function estimateFromEarlier(
  earlier: EarlierRun,
  steps: ReadonlyArray<{ readonly name: string; readonly seconds: number }>,
  mayAlsoRun: readonly string[] = [],
): { wallSeconds: number; basis: string } | undefined {
  const counted = earlier.tests.filter((t) => t.state !== 'skipped' || !skipOfThatRun.test(t.skipReason ?? ''));
  const testSeconds = counted.reduce((n, t) => n + t.durationMs, 0) / 1000;
  const byName = new Map(counted.map((t) => [t.name, t.durationMs / 1000]));
  const found = steps.filter((s) => byName.has(s.name));
  if (found.length === 0 || found.length < steps.length / 4 || testSeconds <= 0) return undefined;
  // Its wall time per second of test time: start-up and file loading, and workers side by side.
  const ratio = earlier.durationMs / 1000 / testSeconds;
  const ranThen = new Set(earlier.tests.filter((t) => t.state !== 'skipped').map((t) => t.name));
  const alsoRan = mayAlsoRun.filter((name) => ranThen.has(name) && !steps.some((s) => s.name === name));
  const seconds =
    steps.reduce((n, s) => n + (byName.get(s.name) ?? s.seconds), 0) +
    alsoRan.reduce((n, name) => n + (byName.get(name) ?? 0), 0);
  const others = steps.length - found.length;
  const learned = earlier.learned ?? [];
  const which = found.length === steps.length ? 'these tests' : `${found.length} of these ${steps.length} tests`;
  const basis = [
    `the earlier run in ${earlier.source}: ${which} as long as they took then`,
    others === 0 ? '' : ` (the other ${others} as the model plays them)`,
    alsoRan.length === 0 ? '' : `, and ${alsoRan.length} more that ran then on credits left at their turn`,
    `, and its ${Math.round(earlier.durationMs / 1000)} s of wall time for ${Math.round(testSeconds)} s of test time`,
    learned.length === 0 ? '' : `; what it learned holds for them: ${learned.join('; ')}`,
  ];
  return { wallSeconds: Math.round(seconds * ratio), basis: basis.join('') };
}

/**
 * What `runs` (newest first) say of the tests `steps`, each as estimateFromEarlier reads it: their median,
 * so that one run a busy machine slowed, or a quiet one sped up, does not decide alone; of two, the newer.
 */
export function estimateFromEarlierRuns(
  runs: readonly EarlierRun[],
  steps: ReadonlyArray<{ readonly name: string; readonly seconds: number }>,
  mayAlsoRun: readonly string[] = [],
): { wallSeconds: number; basis: string } | undefined {
  const each = runs.flatMap((run) => estimateFromEarlier(run, steps, mayAlsoRun) ?? []);
  const [newest] = each;
  if (each.length <= 2) return newest;
  const median = [...each].sort((x, y) => x.wallSeconds - y.wallSeconds)[Math.floor(each.length / 2)] ?? newest;
  const figures = each.map((e) => `${e.wallSeconds} s`).join(', ');
  return (
    median && {
      ...median,
      basis: `the median of ${each.length} earlier runs (${figures}, newest first), ${median.basis}`,
    }
  );
}

/** The first report of `candidates` that checked the same kind of target at the same profile, whole. */
export async function readEarlierRun(candidates: readonly string[], kind: RunKind): Promise<EarlierRun | undefined> {
  return (await readEarlierRuns(candidates, kind, 1))[0];
}

/**
 * The `most` first runs of `candidates` that checked the same kind of target at the same profile, whole,
 * each once (the latest copy is also under its timestamp).
 */
export async function readEarlierRuns(candidates: readonly string[], kind: RunKind, most = 3): Promise<EarlierRun[]> {
  const runs: EarlierRun[] = [];
  const seen = new Set<string>();
  for (const file of candidates) {
    if (runs.length >= most) break;
    const run = await readRun(file, kind);
    if (run === undefined || seen.has(run.startedAt ?? file)) continue;
    seen.add(run.startedAt ?? file);
    runs.push(run);
  }
  return runs;
}

/** The run in `file` when it checked the same kind of target, whole; nothing otherwise. */
async function readRun(file: string, kind: RunKind): Promise<EarlierRun | undefined> {
  const r = await readReport(file);
  if (r === undefined || !sameKind(r, kind) || typeof r.durationMs !== 'number' || !Array.isArray(r.tests)) return;
  if (r.interrupted !== undefined) return;
  const tests = r.tests.filter(
    (t): t is EarlierTest => typeof t?.name === 'string' && typeof t.durationMs === 'number' && t.durationMs >= 0,
  );
  const learned = (Array.isArray(r.learned) ? r.learned : [])
    .slice(0, maxFacts)
    .flatMap((f) => (typeof f?.statement === 'string' ? [f.statement.slice(0, maxFactChars)] : []));
  return {
    source: relative(process.cwd(), file) || file,
    embedded: kind.embedded,
    profile: kind.profile,
    durationMs: r.durationMs,
    tests,
    ...(typeof r.startedAt === 'string' && { startedAt: r.startedAt }),
    ...(learned.length > 0 && { learned }),
  };
}

/** A report as this file reads it: everything optional, since any file may be anything. */
interface ReportLike {
  readonly target?: { readonly embedded?: unknown; readonly baseUrl?: unknown };
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly profile?: unknown;
  readonly durationMs?: unknown;
  readonly tests?: ReadonlyArray<Partial<EarlierTest> | null>;
  readonly interrupted?: unknown;
  readonly startedAt?: unknown;
  readonly learned?: ReadonlyArray<{ readonly statement?: unknown } | null>;
}

function sameKind(r: ReportLike, kind: RunKind): boolean {
  if (r.target?.embedded !== kind.embedded || r.profile !== kind.profile) return false;
  if (kind.embedded) return true;
  return (
    r.target?.baseUrl === kind.baseUrl.replace(/\/$/, '') &&
    (r.capabilities?.['test-control'] === true) === kind.control
  );
}

/** The report in `file`, read up to a bound; nothing when it is missing, too large or not JSON. */
async function readReport(file: string): Promise<ReportLike | undefined> {
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(maxReportBytes + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > maxReportBytes) return undefined;
      const parsed: unknown = JSON.parse(buffer.subarray(0, bytesRead).toString('utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as ReportLike) : undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * Where earlier reports are looked for: the latest run under the report root, the runs there newest
 * first (reports/<timestamp>/), then the repository's reference run.
 */
export async function earlierRunCandidates(reportRoot: string, packageRoot: string): Promise<string[]> {
  let runs: string[] = [];
  try {
    runs = (await readdir(reportRoot, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && /^\d{4}-\d{2}-\d{2}T[\d-]+Z$/.test(d.name))
      .map((d) => d.name)
      .sort()
      .reverse()
      .slice(0, maxCandidates)
      .map((name) => join(reportRoot, name, 'report.json'));
  } catch {
    // No report root yet: the latest and the reference are all there is.
  }
  return [join(reportRoot, 'latest', 'report.json'), ...runs, join(packageRoot, 'reports', 'reference', 'report.json')];
}
