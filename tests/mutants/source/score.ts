/**
 * The score of a source-mutant run, per file and per class, and the published result
 * (reports/mutants-source/last.md and last.json): every mutant with its verdict, and every survivor
 * with what it is (a gap of the suite, an equivalent mutant, or a conforming variant, with the spec
 * sentence).
 */
import type { RequirementId } from '../../../src/contract/requirements.ts';
import { classOf } from '../mutating-proxy.ts';
import type { SourceMutant } from './source-mutant.ts';

export interface SourceOutcome {
  readonly mutant: SourceMutant;
  /** `killed`: a requirement the mutant breaks failed; `error`: the patched server did not run. */
  readonly verdict: 'killed' | 'survived' | 'error';
  readonly killedBy: readonly RequirementId[];
  /** Requirements that failed under the mutant (not in the baseline) but are not among its `breaks`. */
  readonly collateral: readonly RequirementId[];
  readonly seconds: number;
  /** Failed tests, first line each (for the survivors' and the verbose listing). */
  readonly failedTests: readonly string[];
  readonly error?: string;
}

export interface Tally {
  readonly key: string;
  readonly killed: number;
  readonly total: number;
  /** Survivors explained as equivalent or conforming. */
  readonly explained: number;
}

function tallyBy(outcomes: readonly SourceOutcome[], keyOf: (o: SourceOutcome) => string): Tally[] {
  const byKey = new Map<string, { killed: number; total: number; explained: number }>();
  for (const o of outcomes) {
    const t = byKey.get(keyOf(o)) ?? { killed: 0, total: 0, explained: 0 };
    t.total++;
    if (o.verdict === 'killed') t.killed++;
    else if (o.verdict === 'survived' && o.mutant.expected) t.explained++;
    byKey.set(keyOf(o), t);
  }
  return [...byKey].map(([key, t]) => ({ key, ...t })).sort((a, b) => a.key.localeCompare(b.key));
}

export const byFile = (outcomes: readonly SourceOutcome[]): Tally[] => tallyBy(outcomes, (o) => o.mutant.file);
export const byClass = (outcomes: readonly SourceOutcome[]): Tally[] => tallyBy(outcomes, (o) => classOf(o.mutant));

const percent = (n: number, d: number): string => `${d === 0 ? 0 : Math.round((100 * n) / d)}%`;
const cell = (s: string): string => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** What a survivor is: the mutant's own explanation, or a gap of the suite. */
export function survivorNote(o: SourceOutcome): string {
  if (o.verdict === 'error') return `the patched server did not run: ${o.error ?? 'unknown error'}`;
  if (o.mutant.expected) return `${o.mutant.expected.verdict}: ${o.mutant.expected.why}`;
  return 'a gap of the suite: no test fails on the rule it breaks';
}

export interface SourceRunSummary {
  readonly at: string;
  readonly seed: number;
  readonly scope: string;
  readonly wallMinutes: number;
  readonly baselineSeconds?: number;
  readonly outcomes: readonly SourceOutcome[];
}

/**
 * The score over the mutants that change behaviour: a survivor explained as equivalent (no exchange can tell
 * it from the reference) is not a bug any suite could find, so it leaves the denominator, as in the usual
 * definition of a mutation score; a conforming survivor stays in it.
 */
export function behaviourScore(outcomes: readonly SourceOutcome[]): { killed: number; total: number } {
  const equivalent = outcomes.filter((o) => o.verdict === 'survived' && o.mutant.expected?.verdict === 'equivalent');
  return { killed: outcomes.filter((o) => o.verdict === 'killed').length, total: outcomes.length - equivalent.length };
}

/** The published Markdown. */
export function markdown(s: SourceRunSummary): string {
  const killed = s.outcomes.filter((o) => o.verdict === 'killed').length;
  const explained = s.outcomes.filter((o) => o.verdict === 'survived' && o.mutant.expected).length;
  const behaviour = behaviourScore(s.outcomes);
  const table = (title: string, rows: readonly Tally[]) => [
    `| ${title} | killed | survived, explained | score |`,
    '|---|---|---|---|',
    ...rows.map((t) => `| ${t.key} | ${t.killed}/${t.total} | ${t.explained} | ${percent(t.killed, t.total)} |`),
  ];
  const survivors = s.outcomes.filter((o) => o.verdict !== 'killed');
  return [
    '# Source mutants of the reference server',
    '',
    `Run ${s.at}, seed ${s.seed}, ${s.scope}: **${killed}/${s.outcomes.length} killed (${percent(killed, s.outcomes.length)})**, ${explained} survivor(s) explained as equivalent or conforming; wall time ${s.wallMinutes.toFixed(1)} min${s.baselineSeconds === undefined ? '' : ` (baseline ${s.baselineSeconds.toFixed(0)} s included)`}.`,
    `Of the ${behaviour.total} mutants that change behaviour (all but the equivalent survivors): **${behaviour.killed} killed (${percent(behaviour.killed, behaviour.total)})**.`,
    'Each mutant is one realistic bug written into a copy of `src/server` (tests/mutants/source/catalogue.ts); the whole suite runs against the patched server, and a mutant is killed when a requirement it breaks fails (and did not fail in the baseline). `npm run mutants:source` reruns it.',
    '',
    '## Score per class',
    '',
    ...table('class', byClass(s.outcomes)),
    '',
    '## Score per file',
    '',
    ...table('file', byFile(s.outcomes)),
    '',
    '## Mutants',
    '',
    '| mutant | class | file | breaks | verdict | killed by | time | does |',
    '|---|---|---|---|---|---|---|---|',
    ...s.outcomes.map(
      (o) =>
        `| ${o.mutant.name} | ${classOf(o.mutant)} | ${o.mutant.file.replace('src/server/', '')} | ${o.mutant.breaks.join(', ')} | ${o.verdict === 'killed' ? 'killed' : `**${o.verdict}**`} | ${o.killedBy.join(', ') || '-'} | ${o.seconds.toFixed(0)} s | ${cell(o.mutant.does)} |`,
    ),
    '',
    '## Survivors',
    '',
    ...(survivors.length === 0
      ? ['None.']
      : survivors.map((o) => `- **${o.mutant.name}** (${classOf(o.mutant)}): ${cell(survivorNote(o))}`)),
    '',
  ].join('\n');
}

/** The published JSON: the same, as data. */
export function json(s: SourceRunSummary): unknown {
  return {
    at: s.at,
    seed: s.seed,
    scope: s.scope,
    wallMinutes: Number(s.wallMinutes.toFixed(2)),
    ...(s.baselineSeconds !== undefined && { baselineSeconds: Math.round(s.baselineSeconds) }),
    killed: s.outcomes.filter((o) => o.verdict === 'killed').length,
    total: s.outcomes.length,
    behaviourTotal: behaviourScore(s.outcomes).total,
    byClass: byClass(s.outcomes),
    byFile: byFile(s.outcomes),
    mutants: s.outcomes.map((o) => ({
      name: o.mutant.name,
      class: classOf(o.mutant),
      family: o.mutant.family,
      file: o.mutant.file,
      breaks: o.mutant.breaks,
      does: o.mutant.does,
      verdict: o.verdict,
      killedBy: o.killedBy,
      collateral: o.collateral,
      seconds: Math.round(o.seconds),
      ...(o.verdict !== 'killed' && { survivor: survivorNote(o) }),
    })),
  };
}
