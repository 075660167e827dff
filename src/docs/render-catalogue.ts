/**
 * Renders the requirement catalogue as a docs page: self-contained HTML for the docs site
 * (`catalogue.html`, next to the API reference `index.html`) and Markdown for a
 * `docs/requirements.md`-style page. Both group the requirements by the nine sections of the spec.
 */
import { specSections, type Level, type RequirementSpec, type SpecSection } from '../contract/requirements.ts';

/** One catalogue row: a requirement and its ID. `Requirement` fits; tests may pass made-up rows. */
export type CatalogueEntry = RequirementSpec & { readonly id: string };

export const catalogueTitle = 'Virtual Try-On API — requirement catalogue';
const apiLink = { href: 'index.html', text: '← API reference' } as const;
const levels: readonly Level[] = ['MUST', 'SHOULD', 'MAY'];

interface SectionSummary {
  readonly section: SpecSection;
  readonly entries: readonly CatalogueEntry[];
  readonly byLevel: Readonly<Record<Level, number>>;
  readonly implementationDefined: number;
  readonly notObservable: number;
}

function summarise(entries: readonly CatalogueEntry[]): SectionSummary[] {
  return specSections.map((section) => {
    const inSection = entries.filter((e) => e.section === section);
    const byLevel = { MUST: 0, SHOULD: 0, MAY: 0 };
    for (const e of inSection) byLevel[e.level] += 1;
    return {
      section,
      entries: inSection,
      byLevel,
      implementationDefined: inSection.filter((e) => e.implementationDefined === true).length,
      notObservable: inSection.filter((e) => e.notObservable !== undefined).length,
    };
  });
}

function totals(summaries: readonly SectionSummary[]): Omit<SectionSummary, 'section' | 'entries'> & { all: number } {
  const sum = (pick: (s: SectionSummary) => number): number => summaries.reduce((n, s) => n + pick(s), 0);
  return {
    all: sum((s) => s.entries.length),
    byLevel: { MUST: sum((s) => s.byLevel.MUST), SHOULD: sum((s) => s.byLevel.SHOULD), MAY: sum((s) => s.byLevel.MAY) },
    implementationDefined: sum((s) => s.implementationDefined),
    notObservable: sum((s) => s.notObservable),
  };
}

/** The anchor of a section heading, as GitHub would derive it from the heading text. */
export function sectionAnchor(section: SpecSection): string {
  return section
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

/** How a tester observes the requirement, in words. */
function observableVia(e: CatalogueEntry): string {
  if (e.notObservable !== undefined) return `not observable: ${e.notObservable}`;
  return e.needs.length === 0 ? 'plain HTTP' : e.needs.join(', ');
}

function source(e: CatalogueEntry): string {
  return e.subsection === undefined ? 'Spec' : `Spec, ${e.subsection}`;
}

// ---- HTML ----

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const css = `
:root { color-scheme: light; --line: #d0d7de; --muted: #57606a; --link: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
nav.top { padding: 10px 24px; border-bottom: 1px solid var(--line); background: #f6f8fa; }
a { color: var(--link); text-decoration: none; } a:hover { text-decoration: underline; }
main { max-width: 1200px; margin: 0 auto; padding: 8px 24px 48px; }
h1 { font-size: 1.6em; margin: 0.8em 0 0.3em; } h2 { margin-top: 2em; border-bottom: 1px solid var(--line); padding-bottom: 0.2em; }
table { border-collapse: collapse; width: 100%; margin: 0.8em 0; }
th, td { border: 1px solid var(--line); padding: 6px 10px; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr:target { background: #fff8c5; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
td.id code { white-space: nowrap; }
.quote { margin: 4px 0 0; color: var(--muted); font-size: 0.9em; }
.level { font-weight: 600; font-size: 0.85em; padding: 1px 6px; border-radius: 4px; }
.level-MUST { background: #ffebe9; } .level-SHOULD { background: #fff8c5; } .level-MAY { background: #ddf4ff; }
.impl { font-size: 0.85em; font-weight: 600; color: #8250df; }
.muted { color: var(--muted); }
`;

function htmlSummary(summaries: readonly SectionSummary[]): string {
  const t = totals(summaries);
  const head = ['Section', ...levels, 'Total', 'Implementation-defined', 'Not observable'];
  const rows = summaries.map(
    (s) =>
      `<tr><th scope="row"><a href="#${sectionAnchor(s.section)}">${escapeHtml(s.section)}</a></th>` +
      [...levels.map((l) => s.byLevel[l]), s.entries.length, s.implementationDefined, s.notObservable]
        .map((n) => `<td class="num">${n}</td>`)
        .join('') +
      '</tr>',
  );
  const total =
    '<tr><th scope="row">All sections</th>' +
    [...levels.map((l) => t.byLevel[l]), t.all, t.implementationDefined, t.notObservable]
      .map((n) => `<td class="num"><strong>${n}</strong></td>`)
      .join('') +
    '</tr>';
  return [
    '<table class="summary">',
    `<thead><tr>${head.map((h, i) => `<th${i === 0 ? '' : ' class="num"'}>${h}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.join('\n')}\n${total}</tbody>`,
    '</table>',
  ].join('\n');
}

function htmlRow(e: CatalogueEntry): string {
  const id = escapeHtml(e.id);
  const impl = [
    ...(e.implementationDefined ? ['<span class="impl">implementation-defined</span>'] : []),
    ...(e.xPoint === undefined ? [] : [`<span class="muted">x-point <code>${escapeHtml(e.xPoint)}</code></span>`]),
  ].join('<br>');
  const observable =
    e.notObservable === undefined
      ? escapeHtml(observableVia(e))
      : `<span class="muted">${escapeHtml(observableVia(e))}</span>`;
  return [
    `<tr id="${id}">`,
    `<td class="id"><a href="#${id}"><code>${id}</code></a></td>`,
    `<td><span class="level level-${e.level}">${e.level}</span></td>`,
    `<td>${escapeHtml(e.statement)}<p class="quote">${escapeHtml(source(e))}: “${escapeHtml(e.quote)}”</p></td>`,
    `<td>${observable}</td>`,
    `<td>${impl}</td>`,
    '</tr>',
  ].join('');
}

function htmlSection(s: SectionSummary): string {
  return [
    `<section id="${sectionAnchor(s.section)}">`,
    `<h2>${escapeHtml(s.section)}</h2>`,
    '<table>',
    '<colgroup><col style="width:22%"><col style="width:7%"><col style="width:45%"><col style="width:16%"><col style="width:10%"></colgroup>',
    '<thead><tr><th>ID</th><th>Level</th><th>Statement</th><th>Observable via</th><th>Implementation-defined</th></tr></thead>',
    `<tbody>\n${s.entries.map(htmlRow).join('\n')}\n</tbody>`,
    '</table>',
    '</section>',
  ].join('\n');
}

/**
 * The catalogue as one self-contained HTML page (inline CSS, system fonts, no external assets):
 * counts per section and level, then one table per section of the spec, each requirement
 * anchored by its ID so that `catalogue.html#CREATE-IDEMPOTENCY-REPLAY` lands on its row.
 */
export function renderCatalogueHtml(reqs: readonly CatalogueEntry[]): string {
  const summaries = summarise(reqs);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(catalogueTitle)}</title>`,
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    `<nav class="top"><a href="${apiLink.href}">${escapeHtml(apiLink.text)}</a></nav>`,
    '<main>',
    `<h1>${escapeHtml(catalogueTitle)}</h1>`,
    `<p>Every rule of the Virtual Try-On API specification, one requirement each (${reqs.length} in all). ` +
      'Conformance tests name these IDs, and reports trace each verdict to them. ' +
      '“Observable via” says what a black-box tester needs beyond plain HTTP with one API key.</p>',
    htmlSummary(summaries),
    ...summaries.filter((s) => s.entries.length > 0).map(htmlSection),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

// ---- Markdown ----

/** Escapes text for a Markdown table cell: no code spans, emphasis, links, HTML or cell breaks. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|])/g, '\\$1')
    .replace(/\s*\n\s*/g, ' ');
}

/** A GFM table; columns from `numericFrom` on are right-aligned. */
function markdownTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  numericFrom = head.length,
): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map((_, i) => (i >= numericFrom ? '---:' : '---'))), ...rows.map(line)].join('\n');
}

/**
 * The catalogue as Markdown, with the same content as the HTML page: counts per section and
 * level, then one table per section of the spec, each ID carrying an `<a id>` anchor.
 */
export function renderCatalogueMarkdown(reqs: readonly CatalogueEntry[]): string {
  const summaries = summarise(reqs);
  const t = totals(summaries);
  const summary = markdownTable(
    ['Section', ...levels, 'Total', 'Implementation-defined', 'Not observable'],
    [
      ...summaries.map((s) => [
        `[${escapeMarkdown(s.section)}](#${sectionAnchor(s.section)})`,
        ...[...levels.map((l) => s.byLevel[l]), s.entries.length, s.implementationDefined, s.notObservable].map(String),
      ]),
      [
        '**All sections**',
        ...[...levels.map((l) => t.byLevel[l]), t.all, t.implementationDefined, t.notObservable].map((n) => `**${n}**`),
      ],
    ],
    1,
  );
  const sections = summaries
    .filter((s) => s.entries.length > 0)
    .map((s) =>
      [
        `## ${s.section}`,
        '',
        markdownTable(
          ['ID', 'Level', 'Statement', 'Observable via', 'Implementation-defined'],
          s.entries.map((e) => [
            `<a id="${escapeHtml(e.id)}"></a>\`${e.id.replace(/`/g, '')}\``,
            e.level,
            `${escapeMarkdown(e.statement)}<br>${escapeMarkdown(source(e))}: “${escapeMarkdown(e.quote)}”`,
            escapeMarkdown(observableVia(e)),
            [
              ...(e.implementationDefined ? ['implementation-defined'] : []),
              ...(e.xPoint === undefined ? [] : [`x-point ${escapeMarkdown(e.xPoint)}`]),
            ].join('<br>'),
          ]),
        ),
      ].join('\n'),
    );
  return [
    `# ${catalogueTitle}`,
    '',
    `[${apiLink.text}](${apiLink.href})`,
    '',
    `Every rule of the Virtual Try-On API specification, one requirement each (${reqs.length} in all). ` +
      'Conformance tests name these IDs, and reports trace each verdict to them. ' +
      '"Observable via" says what a black-box tester needs beyond plain HTTP with one API key.',
    '',
    summary,
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}
