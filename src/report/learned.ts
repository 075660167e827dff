/**
 * "What the run learned": the facts about the target that tests established and later tests read
 * (suite/run-facts.ts), gathered from the tests that learned them, and their section of report.md.
 */
import type { TaskMeta } from 'vitest';
import { markdownCell, terminalLine } from '../shared/escape.ts';
import type { LearnedFact } from '../suite/run-facts.ts';
import type { Report } from './types.ts';

/** Each fact once, as first learned, in the order the tests ran. */
export function learnedOf(ran: ReadonlyArray<{ readonly meta: TaskMeta }>): LearnedFact[] {
  const facts = new Map<string, LearnedFact>();
  for (const r of ran) for (const fact of r.meta.learned ?? []) if (!facts.has(fact.fact)) facts.set(fact.fact, fact);
  return [...facts.values()];
}

/** The section of report.md: nothing when the run learned nothing. */
export function learnedMarkdown(report: Pick<Report, 'learned'>): string[] {
  const facts = report.learned ?? [];
  if (facts.length === 0) return [];
  return [
    `### What the run learned (${facts.length})`,
    '',
    'Facts about this target that a test saw and later tests read, so that no test waited for what could not ' +
      'come. A fact only ends a later test as inconclusive, with the fact as its reason; it never fails one.',
    '',
    '| Fact | What showed it | Learned by |',
    '|:--|:--|:--|',
    ...facts.map((f) => `| ${markdownCell(f.statement)} | ${markdownCell(f.seen)} | ${markdownCell(f.test)} |`),
    '',
  ];
}

/** The facts as lines for the terminal, after the run's headline: nothing when the run learned nothing. */
export function learnedLines(report: Pick<Report, 'learned'>): string[] {
  return (report.learned ?? []).map((f) => terminalLine(`Learned: ${f.statement} (${f.seen}; by "${f.test}")`));
}
