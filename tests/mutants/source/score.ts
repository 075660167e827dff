/**
 * The score of a source-mutant run, per file and per class, and the published result
 * (reports/mutants-source/last.md and last.json): every mutant with its verdict, and every survivor
 * with what it is (a gap of the suite, or an equivalent mutant, with why). A conforming edit (a change the
 * spec allows) is no bug: it is scored apart, and must pass; a failure of it is a false verdict.
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

/** A change the spec allows, kept in the catalogue to catch false verdicts: it must pass. */
export const isConformingEdit = (m: SourceMutant): boolean => m.expected?.verdict === 'conforming';
/** The outcomes of the catalogue's bugs (every mutant but the conforming edits). */
export const bugsOf = (outcomes: readonly SourceOutcome[]): SourceOutcome[] =>
  outcomes.filter((o) => !isConformingEdit(o.mutant));
/** A conforming edit that some requirement failed on (not in the baseline), or whose server did not run. */
export const falseVerdictsOf = (outcomes: readonly SourceOutcome[]): SourceOutcome[] =>
  outcomes.filter((o) => isConformingEdit(o.mutant) && o.verdict !== 'survived');

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

export const byFile = (outcomes: readonly SourceOutcome[]): Tally[] => tallyBy(bugsOf(outcomes), (o) => o.mutant.file);
export const byClass = (outcomes: readonly SourceOutcome[]): Tally[] =>
  tallyBy(bugsOf(outcomes), (o) => classOf(o.mutant));

const percent = (n: number, d: number): string => `${d === 0 ? 0 : Math.round((100 * n) / d)}%`;
const cell = (s: string): string => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** What a survivor is: the mutant's own explanation, or a gap of the suite. */
export function survivorNote(o: SourceOutcome): string {
  if (o.verdict === 'error') return `the patched server did not run: ${o.error ?? 'unknown error'}`;
  if (o.verdict === 'killed' && isConformingEdit(o.mutant))
    return `a false verdict: a change the spec allows failed ${o.killedBy.join(', ')}`;
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
 * The score over the bugs that change behaviour: a survivor explained as equivalent (no exchange can tell
 * it from the reference) is not a bug any suite could find, so it leaves the denominator, as in the usual
 * definition of a mutation score.
 */
export function behaviourScore(outcomes: readonly SourceOutcome[]): { killed: number; total: number } {
  const bugs = bugsOf(outcomes);
  const equivalent = bugs.filter((o) => o.verdict === 'survived' && o.mutant.expected?.verdict === 'equivalent');
  return { killed: bugs.filter((o) => o.verdict === 'killed').length, total: bugs.length - equivalent.length };
}

/** Killed bugs, all bugs, conforming edits that passed, all conforming edits. */
export function counts(outcomes: readonly SourceOutcome[]) {
  const bugs = bugsOf(outcomes);
  const edits = outcomes.filter((o) => isConformingEdit(o.mutant));
  return {
    killed: bugs.filter((o) => o.verdict === 'killed').length,
    bugs: bugs.length,
    passed: edits.filter((o) => o.verdict === 'survived').length,
    edits: edits.length,
  };
}

const verdictCell = (o: SourceOutcome): string => {
  if (isConformingEdit(o.mutant))
    return o.verdict === 'survived' ? 'passed (conforming)' : `**${o.verdict}: false verdict**`;
  return o.verdict === 'killed' ? 'killed' : `**${o.verdict}**`;
};

/** The published Markdown. */
export function markdown(s: SourceRunSummary): string {
  const c = counts(s.outcomes);
  const explained = bugsOf(s.outcomes).filter((o) => o.verdict === 'survived' && o.mutant.expected).length;
  const behaviour = behaviourScore(s.outcomes);
  const table = (title: string, rows: readonly Tally[]) => [
    `| ${title} | killed | survived, explained | score |`,
    '|---|---|---|---|',
    ...rows.map((t) => `| ${t.key} | ${t.killed}/${t.total} | ${t.explained} | ${percent(t.killed, t.total)} |`),
  ];
  const survivors = bugsOf(s.outcomes).filter((o) => o.verdict !== 'killed');
  const edits = s.outcomes.filter((o) => isConformingEdit(o.mutant));
  return [
    '# Source mutants of the reference server',
    '',
    `Run ${s.at}, seed ${s.seed}, ${s.scope}: **${c.killed}/${c.bugs} bugs killed (${percent(c.killed, c.bugs)})**, ${explained} survivor(s) explained as equivalent; **${c.passed}/${c.edits} conforming edits passed**; wall time ${s.wallMinutes.toFixed(1)} min${s.baselineSeconds === undefined ? '' : ` (baseline ${s.baselineSeconds.toFixed(0)} s included)`}.`,
    `Of the ${behaviour.total} bugs that change behaviour (all but the equivalent survivors): **${behaviour.killed} killed (${percent(behaviour.killed, behaviour.total)})**. Counted as one list, with the conforming edits as survivors: ${c.killed}/${c.bugs + c.edits} (${percent(c.killed, c.bugs + c.edits)}).`,
    'Each mutant is one realistic bug written into a copy of `src/server` (tests/mutants/source/catalogue.ts); the whole suite runs against the patched server, and a mutant is killed when a requirement it breaks fails (and did not fail in the baseline). A conforming edit is a change of the same kind that the spec allows: it must pass, and a failure of it is a false verdict. `npm run mutants:source` reruns it.',
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
        `| ${o.mutant.name} | ${classOf(o.mutant)} | ${o.mutant.file.replace('src/server/', '')} | ${o.mutant.breaks.join(', ')} | ${verdictCell(o)} | ${o.killedBy.join(', ') || '-'} | ${o.seconds.toFixed(0)} s | ${cell(o.mutant.does)} |`,
    ),
    '',
    '## Survivors',
    '',
    ...(survivors.length === 0
      ? ['None.']
      : survivors.map((o) => `- **${o.mutant.name}** (${classOf(o.mutant)}): ${cell(survivorNote(o))}`)),
    '',
    '## Conforming edits',
    '',
    ...(edits.length === 0
      ? ['None.']
      : edits.map(
          (o) =>
            `- **${o.mutant.name}** (${classOf(o.mutant)}), ${o.verdict === 'survived' ? 'passed' : `**${o.verdict}: a false verdict**`}: ${cell(o.mutant.expected?.why ?? '')}`,
        )),
    '',
  ].join('\n');
}

/** The published JSON: the same, as data. */
export function json(s: SourceRunSummary): unknown {
  const c = counts(s.outcomes);
  return {
    at: s.at,
    seed: s.seed,
    scope: s.scope,
    wallMinutes: Number(s.wallMinutes.toFixed(2)),
    ...(s.baselineSeconds !== undefined && { baselineSeconds: Math.round(s.baselineSeconds) }),
    killed: c.killed,
    total: c.bugs,
    behaviourTotal: behaviourScore(s.outcomes).total,
    conformingEdits: { passed: c.passed, total: c.edits },
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
      ...(isConformingEdit(o.mutant) && { conformingEdit: true }),
      ...((o.verdict !== 'killed' || isConformingEdit(o.mutant)) && { survivor: survivorNote(o) }),
    })),
  };
}
