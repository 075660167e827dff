/**
 * The score of a client-mutant run and its published form (reports/mutants-client/last.md and
 * last.json): every mutant with its verdict and the tests that killed it.
 */
import type { ClientMutant } from './client-mutants.ts';

export interface ClientOutcome {
  readonly mutant: ClientMutant;
  /** `killed`: a test failed that passes on the baseline; `error`: the copy's tests did not run. */
  readonly verdict: 'killed' | 'survived' | 'error';
  /** Full names of the tests that failed under the mutant and not on the baseline. */
  readonly killedBy: readonly string[];
  readonly seconds: number;
  readonly error?: string;
}

export interface ClientRunSummary {
  readonly at: string;
  readonly killed: number;
  readonly total: number;
  readonly outcomes: readonly ClientOutcome[];
}

const cell = (s: string): string => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
const percent = (n: number, d: number): string => `${d === 0 ? 0 : Math.round((100 * n) / d)}%`;

/** The run's summary. */
export function summaryOf(outcomes: readonly ClientOutcome[], at = new Date().toISOString()): ClientRunSummary {
  return { at, killed: outcomes.filter((o) => o.verdict === 'killed').length, total: outcomes.length, outcomes };
}

/** One line: the score. */
export const scoreLine = (s: ClientRunSummary): string =>
  `client mutants: ${s.killed}/${s.total} killed (${percent(s.killed, s.total)})`;

/** The published Markdown. */
export function markdown(s: ClientRunSummary): string {
  const rows = s.outcomes.map((o) => {
    const by = o.verdict === 'error' ? `error: ${o.error ?? ''}` : o.killedBy.slice(0, 3).join('; ');
    const more = o.killedBy.length > 3 ? ` (+${o.killedBy.length - 3} more)` : '';
    return `| ${o.mutant.name} | ${o.mutant.file} | ${o.mutant.breaks.join(', ')} | ${o.verdict} | ${cell(by + more)} | ${cell(o.mutant.does)} |`;
  });
  return [
    '# Client mutants',
    '',
    `Run ${s.at}: ${scoreLine(s)}. Each mutant is a realistic bug in src/sdk; it is killed when one of the`,
    "client's own tests (tests/sdk) fails on it and passes on the unpatched copy. Rules: tests/sdk/spec-client-rules.ts.",
    '',
    '| mutant | file | breaks | verdict | killed by | does |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** The published JSON. */
export function json(s: ClientRunSummary): string {
  const outcomes = s.outcomes.map((o) => ({
    name: o.mutant.name,
    file: o.mutant.file,
    breaks: o.mutant.breaks,
    does: o.mutant.does,
    verdict: o.verdict,
    killedBy: o.killedBy,
    seconds: o.seconds,
    ...(o.error !== undefined && { error: o.error }),
  }));
  return `${JSON.stringify({ at: s.at, killed: s.killed, total: s.total, outcomes }, null, 2)}\n`;
}
