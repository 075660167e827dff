/**
 * reports/flows/last.md: the flows against `serve`, then each matched mutant with whether its flow
 * failed (killed) and which other flows failed with it. Every workflow and step name comes from our
 * own Arazzo file; failure messages come from Respect and are escaped for a Markdown table.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../src/contract/paths.ts';
import type { FlowResult } from './respect.ts';

export interface MutantRow {
  readonly mutant: string;
  readonly flows: readonly string[];
  readonly results: readonly FlowResult[];
  readonly seconds: number;
}

/** Whether every flow matched to the mutant failed under it. */
export function killed(row: MutantRow): boolean {
  return row.flows.every((flow) => row.results.some((r) => r.workflowId === flow && !r.passed));
}

/** The report as Markdown. */
export function flowsReport(
  baseline: readonly FlowResult[],
  baselineSeconds: number,
  rows: readonly MutantRow[],
): string {
  const lines = [
    '# Arazzo flows under Redocly Respect',
    '',
    'Written by `npm run flows -- --mutants` (scripts/run-flows.ts): `arazzo/tryon-flows.arazzo.yaml` run with',
    '`redocly respect` against `tryon-conformance serve` on loopback, then against the same server behind',
    'the mutating proxy of tests/mutants playing the mutant matched to each flow.',
    '',
    `## Against serve (${baselineSeconds.toFixed(0)} s)`,
    '',
    '| workflow | result |',
    '|---|---|',
    ...baseline.map(
      (r) => `| ${cell(r.workflowId)} | ${r.passed ? 'passed' : `FAILED: ${cell(r.failures.join('; '))}`} |`,
    ),
    '',
    '## Against the matched mutants',
    '',
    '| mutant | its flow | flow result | first failed check | other flows failed | seconds |',
    '|---|---|---|---|---|---|',
    ...rows
      .map((row) => {
        const own = row.results.filter((r) => row.flows.includes(r.workflowId));
        const others = row.results.filter((r) => !row.flows.includes(r.workflowId) && !r.passed);
        return [
          `\`${cell(row.mutant)}\``,
          cell(row.flows.join(', ')),
          killed(row) ? 'failed (killed)' : 'PASSED (survived)',
          cell(own.flatMap((r) => r.failures)[0] ?? ''),
          cell(others.map((r) => r.workflowId).join(', ') || '-'),
          row.seconds.toFixed(0),
        ].join(' | ');
      })
      .map((line) => `| ${line} |`),
    '',
    `Killed: ${rows.filter(killed).length} of ${rows.length}.`,
    '',
  ];
  return lines.join('\n');
}

/** Writes the report to reports/flows/last.md and returns its path. */
export function writeFlowsReport(markdown: string): string {
  const dir = join(paths.root, 'reports', 'flows');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'last.md');
  writeFileSync(file, markdown);
  return file;
}

/** Text for a Markdown table cell: one line, pipes, backticks and HTML escaped. */
export function cell(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/`/g, "'");
}
