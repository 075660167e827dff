/**
 * "What the run learned": the facts about the target that tests established and later tests read
 * (suite/run-facts.ts), gathered from the tests that learned them, and how each output shows them.
 */
import type { TaskMeta } from 'vitest';
import { escapeHtml as h, markdownCell, terminalLine } from '../shared/escape.ts';
import type { LearnedFact } from '../suite/run-facts.ts';
import type { Report } from './types.ts';

/** Each fact once, as first learned, in the order the tests ran. */
export function learnedOf(ran: ReadonlyArray<{ readonly meta: TaskMeta }>): LearnedFact[] {
  const facts = new Map<string, LearnedFact>();
  for (const r of ran) for (const fact of r.meta.learned ?? []) if (!facts.has(fact.fact)) facts.set(fact.fact, fact);
  return [...facts.values()];
}

const lead =
  'Facts about this target that a test saw and later tests read, so that no test waited for what could not ' +
  'come. A fact only ends a later test as inconclusive, with the fact as its reason; it never fails one.';

/** The section of report.md: nothing when the run learned nothing. */
export function learnedMarkdown(report: Pick<Report, 'learned'>): string[] {
  const facts = report.learned ?? [];
  if (facts.length === 0) return [];
  return [
    `### What the run learned (${facts.length})`,
    '',
    lead,
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

/** The section of report.html: nothing when the run learned nothing. */
export function learnedHtml(report: Pick<Report, 'learned'>): string {
  const facts = report.learned ?? [];
  if (facts.length === 0) return '';
  const rows = facts.map((f) => `<tr><td>${h(f.statement)}</td><td>${h(f.seen)}</td><td>${h(f.test)}</td></tr>`);
  return `
<section id="learned" aria-label="What the run learned">
<div class="block-title"><h2>What the run learned</h2><span class="count">${facts.length}</span></div>
<p class="hint">${h(lead)}</p>
<table class="choices"><thead><tr><th>Fact</th><th>What showed it</th><th>Learned by</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
</section>`;
}
