/**
 * The known failures (`run --expect FILE`) as each output shows them: lines for the terminal, a
 * section of report.md and of report.html. Every text of the file is escaped for where it lands.
 */
import { escapeHtml as h, markdownCell, markdownText, terminalLine } from '../shared/escape.ts';
import { expectationCounts, staleStatuses, type ExpectationResult, type ExpectationStatus } from './expectations.ts';
import type { Report } from './types.ts';

const statusLabel: Readonly<Record<ExpectationStatus, string>> = {
  failing: 'failing as expected',
  'unexpectedly-passing': 'unexpectedly passing',
  expired: 'expired',
  'not-judged': 'not judged',
};

/** What to do about an entry, in a few words. */
const advice: Readonly<Record<ExpectationStatus, string>> = {
  failing: 'still fails: keep the entry',
  'unexpectedly-passing': 'it passes now: remove the entry',
  expired: 'past its date: renew or remove the entry',
  'not-judged': 'this run gave it no pass or fail',
};

const order: readonly ExpectationStatus[] = ['unexpectedly-passing', 'expired', 'failing', 'not-judged'];

/** The counts as a clause: `12 failing as expected, 1 unexpectedly passing`. */
export function expectationCountsText(report: Report): string {
  const c = expectationCounts(report);
  const parts = order.filter((s) => c[s] > 0).map((s) => `${c[s]} ${statusLabel[s]}`);
  return parts.length === 0 ? 'no entries' : parts.join(', ');
}

function sorted(report: Report): ExpectationResult[] {
  return [...(report.expectations?.entries ?? [])].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status));
}

function strictNote(report: Report): string {
  const x = report.expectations;
  if (x === undefined || !x.strict) return '';
  return x.entries.some((e) => staleStatuses.includes(e.status))
    ? ' (--strict-expect: the stale entries fail the run)'
    : '';
}

/** Lines for the end of a run in the terminal; none without an expectations file. */
export function expectationLines(report: Report): string[] {
  const x = report.expectations;
  if (x === undefined) return [];
  // Only what asks for a change of the file, by name; the rest is counted.
  const stale = sorted(report).filter((e) => staleStatuses.includes(e.status));
  return [
    `Known failures (--expect ${terminalLine(x.file)}): ${expectationCountsText(report)}${strictNote(report)}`,
    ...stale.map((e) => `  ${statusLabel[e.status]}: ${e.id}${expiry(e)}: ${advice[e.status]}`),
  ];
}

function expiry(e: ExpectationResult): string {
  return e.expires === undefined ? '' : ` (expires ${terminalLine(e.expires)})`;
}

/** The section of report.md: every entry with its status, stale ones first. */
export function expectationsMarkdown(report: Report): string[] {
  const x = report.expectations;
  if (x === undefined) return [];
  return [
    `### Known failures (${x.entries.length})`,
    '',
    `From ${markdownText(x.file)}: ${expectationCountsText(report)}${markdownText(strictNote(report))}. An expected ` +
      'failure keeps its verdict but does not change the outcome.',
    '',
    '| Requirement | Status | Reason | Link | Expires |',
    '|:--|:--|:--|:--|:--|',
    ...sorted(report).map(
      (e) =>
        `| ${markdownCell(e.id)} | ${statusLabel[e.status]} | ${markdownCell(e.reason)} | ` +
        `${markdownCell(e.link ?? '')} | ${markdownCell(e.expires ?? '')} |`,
    ),
    '',
  ];
}

/** The section of report.html; the link is an http(s) URL (the file's schema) and opens nothing by itself. */
export function expectationsHtml(report: Report): string {
  const x = report.expectations;
  if (x === undefined) return '';
  const rows = sorted(report)
    .map(
      (e) =>
        `<tr class="x-${e.status}"><td><a href="#req-${h(e.id)}"><code>${h(e.id)}</code></a></td>` +
        `<td>${statusLabel[e.status]}</td><td>${h(e.reason)}</td>` +
        `<td>${e.link === undefined ? '' : `<a href="${h(e.link)}" rel="noopener noreferrer">${h(e.link)}</a>`}</td>` +
        `<td>${e.expires === undefined ? '' : h(e.expires)}</td></tr>`,
    )
    .join('\n');
  return `
<section id="expectations" aria-label="Known failures">
<div class="block-title"><h2>Known failures</h2><span class="count">${x.entries.length}</span></div>
<p class="hint">From <code>${h(x.file)}</code> (--expect): ${h(expectationCountsText(report))}${h(strictNote(report))}.
An expected failure keeps its verdict but does not change the outcome.</p>
<table class="choices expectations"><thead><tr>
<th>Requirement</th><th>Status</th><th>Reason</th><th>Link</th><th>Expires</th></tr></thead><tbody>
${rows}
</tbody></table>
</section>`;
}

/** What a requirement named in the expectations file is: `failing as expected, --expect`. */
export function expectedTag(e: ExpectationResult): string {
  return `${statusLabel[e.status]}, --expect`;
}

/** The note a requirement's verdict gets in a listing: ` (failing as expected, --expect)`, or empty. */
export function expectedNote(e: ExpectationResult | undefined): string {
  return e === undefined ? '' : ` (${expectedTag(e)})`;
}
