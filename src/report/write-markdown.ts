/**
 * report.md: for CI step summaries (`$GITHUB_STEP_SUMMARY`) and PR comments. The summary table
 * first, then every failure with its requirement, expected/received, the replay command and the
 * last exchange as curl; then the traceability table grouped by spec section, folded.
 */
import { seenText, verdictText } from './alternatives.ts';
import { costRows, cutSentence } from './cost.ts';
import { learnedMarkdown } from './learned.ts';
import { requestCountsMarkdown } from './requests-counted.ts';
import { expectationsMarkdown, expectedNote } from './expectations-view.ts';
import { codeCell, fence, inlineCode, markdownCell, markdownHtml, markdownText } from '../shared/escape.ts';
import {
  bySection,
  choiceTests,
  failingFirstByLevel,
  formatDuration,
  formatRate,
  formatTimestamp,
  headline,
  prettyCurl,
  verdictLabel,
} from './format.ts';
import { levels, verdicts, type Failure, type Report, type RequirementResult, type Verdict } from './model.ts';
import { countOf } from './summary.ts';

const icon: Readonly<Record<Verdict, string>> = {
  pass: '✅',
  fail: '❌',
  inconclusive: '❔',
  skip: '⏭️',
  'not-observable': '⚪',
  'not-covered': '➖',
};

/** The report as GitHub-flavoured Markdown. */
export function renderMarkdown(report: Report): string {
  return (
    [
      ...summary(report),
      ...expectationsMarkdown(report),
      ...cost(report),
      ...learnedMarkdown(report),
      ...requestCountsMarkdown(report),
      ...runErrors(report),
      ...choices(report),
      ...alternatives(report),
      ...failures(report),
      ...traceability(report),
    ].join('\n') + '\n'
  );
}

const outcomeIcon = { pass: '✅', fail: '❌', error: '⚠️' } as const;

function summary(report: Report): string[] {
  const s = report.summary;
  const target = report.target.embedded
    ? `${inlineCode(report.target.baseUrl)} (embedded reference server)`
    : inlineCode(report.target.baseUrl);
  const rows = verdicts.map(
    (v) =>
      `| ${icon[v]} ${verdictLabel[v]} | ${countOf(s.requirements, v)} | ${levels.map((l) => countOf(s.byLevel[l], v)).join(' | ')} |`,
  );
  const missing = Object.entries(report.capabilities).filter(([, v]) => v !== true);
  return [
    `## ${outcomeIcon[s.outcome]} ${markdownText(headline(report))}`,
    '',
    `Virtual Try-On API conformance run against ${target} · ${formatTimestamp(report.startedAt)} · ${formatDuration(report.durationMs)} · seed ${inlineCode(String(report.seed))} · profile ${inlineCode(report.profile)} · ${markdownText(report.tool.name)} ${markdownText(report.tool.version)}`,
    '',
    '| Verdict | Requirements | MUST | SHOULD | MAY |',
    '|:--|--:|--:|--:|--:|',
    ...rows,
    `| **total** | **${s.requirements.total}** | ${levels.map((l) => s.byLevel[l].total).join(' | ')} |`,
    '',
    `Pass rate **${formatRate(s.passRate)}** of the judged requirements (${s.requirements.pass} of ${s.requirements.pass + s.requirements.fail}) · tests: ${s.tests.total} (${s.tests.passed} passed, ${s.tests.failed} failed, ${s.tests.inconclusive > 0 ? `${s.tests.inconclusive} inconclusive, ` : ''}${s.tests.skipped} skipped)`,
    ...(s.requirements.inconclusive > 0
      ? [
          '',
          `${s.requirements.inconclusive} requirement${s.requirements.inconclusive === 1 ? ' is' : 's are'} inconclusive: every test covering them stopped before judging them (another requirement failed first, a precondition of the run did not hold, or a timeout). They are neither passed nor failed; the traceability table gives each reason.`,
        ]
      : []),
    ...(s.outcome === 'pass' && s.requirements.fail > 0
      ? [
          '',
          'Failures of SHOULD, MAY and implementation-defined requirements are reported but do not change the outcome.',
        ]
      : []),
    ...(missing.length > 0
      ? [
          '',
          `Not offered by this configuration: ${missing.map(([name]) => inlineCode(name)).join(', ')} (their requirements are skipped; see the traceability table).`,
        ]
      : []),
    '',
  ];
}

/** Credits and wall time, planned against actual (cost.ts). */
function cost(report: Report): string[] {
  if (report.cost === undefined) return [];
  return [
    '### Cost: planned against actual',
    '',
    '| | Estimate | Bound | Actual | Against the estimate |',
    '|:--|--:|--:|--:|--:|',
    ...costRows(report.cost).map((row) => `| ${row.map(markdownCell).join(' | ')} |`),
    '',
    `Estimate: ${markdownText(report.cost.planned.basis.replace(/\.$/, ''))}. Credits ${markdownText(report.cost.actual.creditsCounted)}.`,
    '',
    ...[cutSentence(report.interrupted, report.tests)].flatMap((s) => (s === undefined ? [] : [markdownText(s), ''])),
  ];
}

/** What the target chose where the spec leaves the answer open: recorded, never judged. */
function choices(report: Report): string[] {
  const title = `### Implementation-defined points (${report.choices.length})`;
  const lead =
    'Where the spec leaves the answer open, the suite records what this target did and never fails it for that.';
  if (report.choices.length === 0) return [title, '', `${lead} This run recorded no such choice.`, ''];
  return [
    title,
    '',
    lead,
    '',
    '| Point | What this target did | Requirement | Tests |',
    '|:--|:--|:--|:--|',
    ...report.choices.map((c) => {
      const doc =
        c.conformance === undefined
          ? ''
          : `<br><sub>Accepted: ${markdownCell(c.conformance.replace(/^Accepted: /, ''))}</sub>`;
      const requirement = c.requirement === undefined ? '—' : codeCell(c.requirement);
      return `| ${codeCell(c.point)}${doc} | ${c.values.map((v) => `${codeCell(v.value)}${v.count > 1 ? ` (×${v.count})` : ''}`).join('<br>')} | ${requirement} | ${choiceTests(c).map(markdownCell).join('<br>')} |`;
    }),
    '',
  ];
}

/** The spec's alternatives each requirement's checks met, and the partial passes. */
function alternatives(report: Report): string[] {
  const rows = report.requirements.filter((r) => r.alternatives !== undefined);
  if (rows.length === 0) return [];
  return [
    `### Alternatives exercised (${rows.length})`,
    '',
    'Where the spec names alternatives (JPEG or PNG, URL or uploaded id, POST /tryons or /tryons/sync, success or failed), the checks of each requirement record which ones they met. A pass that met only some is partially exercised; it stays a pass.',
    '',
    '| Requirement | Seen | Never seen | Verdict |',
    '|:--|:--|:--|:--|',
    ...rows.map((r) => {
      const dims = r.alternatives ?? [];
      const seen = dims.map((d) => `${markdownCell(d.dimension)}: ${markdownCell(seenText(d) || '—')}`).join('<br>');
      const unseen =
        dims
          .filter((d) => d.unseen.length > 0)
          .map((d) => `${markdownCell(d.dimension)}: ${markdownCell(d.unseen.join(', '))}`)
          .join('<br>') || '—';
      return `| ${codeCell(r.id)} | ${seen} | ${unseen} | ${icon[r.verdict]} ${markdownCell(verdictText(r, verdictLabel[r.verdict]))} |`;
    }),
    '',
  ];
}

function failures(report: Report): string[] {
  const failing = failingFirstByLevel(report.requirements);
  if (failing.length === 0) return [];
  return [`### Failures (${failing.length})`, '', ...failing.flatMap(failureBlock)];
}

function failureBlock(r: RequirementResult): string[] {
  return [
    `#### ❌ ${inlineCode(r.id)} · ${r.level}${r.implementationDefined ? ' · implementation-defined' : ''}${markdownText(expectedNote(r.expected))}`,
    '',
    `> ${markdownText(r.statement)}`,
    '',
    `${markdownText(r.section)}${r.subsection === undefined ? '' : ` › ${markdownText(r.subsection)}`}`,
    '',
    ...r.failures.flatMap((f) => oneFailure(f)),
  ];
}

function oneFailure(f: Failure): string[] {
  const out = [
    `**Test:** ${markdownText(f.test)}${f.check === undefined ? '' : ` · check ${inlineCode(f.check)}`}${f.occurrences === undefined ? '' : ` · on ${f.occurrences} exchanges`}`,
    '',
  ];
  out.push(fence(f.message, 'text'), '');
  if (f.expected !== undefined || f.received !== undefined) {
    out.push('| | |', '|:--|:--|');
    if (f.expected !== undefined) out.push(`| **expected** | ${clippedCode(f.expected)} |`);
    if (f.received !== undefined) out.push(`| **received** | ${clippedCode(f.received)} |`);
    out.push('');
  }
  if (f.counterexample !== undefined)
    out.push('<details><summary>Counterexample</summary>', '', fence(f.counterexample, 'text'), '', '</details>', '');
  out.push('Replay:', '', fence(f.replay.command, 'sh'), '');
  const last = f.evidence.at(-1);
  if (last !== undefined) {
    const total = f.evidence.length + (f.evidenceOmitted ?? 0);
    out.push(
      `Evidence, the last of ${total} exchange${total === 1 ? '' : 's'} (→ ${last.status ?? 'no response'}):`,
      '',
      fence(prettyCurl(last.curl), 'sh'),
      '',
    );
    if (last.body !== '') out.push(fence(last.body, 'text'), '');
  }
  return out;
}

/** A value in a table cell, as code, cut at 300 characters. */
function clippedCode(text: string): string {
  return codeCell(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

function runErrors(report: Report): string[] {
  if (report.errors.length === 0) return [];
  return [
    `### Run errors (${report.errors.length})`,
    '',
    'Errors of the run itself, not findings about the target (exit status 2). They stopped tests from running; requirements they would have covered may show as not covered or inconclusive.',
    '',
    ...report.errors.flatMap((e) => [
      `- ${e.file === undefined ? '' : `${inlineCode(e.file)}: `}${markdownText(e.message.split('\n')[0] ?? '')}`,
    ]),
    '',
  ];
}

function traceability(report: Report): string[] {
  return [
    '### Traceability',
    '',
    ...bySection(report.requirements).flatMap(({ section, requirements }) => {
      const counts = verdicts
        .map((v) => [v, requirements.filter((r) => r.verdict === v).length] as const)
        .filter(([, n]) => n > 0)
        .map(([v, n]) => `${icon[v]} ${n}`)
        .join(' · ');
      const open = requirements.some((r) => r.verdict === 'fail') ? ' open' : '';
      return [
        `<details${open}><summary><b>${markdownHtml(section)}</b> — ${counts}</summary>`,
        '',
        '| ID | Level | Requirement | Verdict | Tests |',
        '|:--|:--|:--|:--|:--|',
        ...requirements.map(
          (r) =>
            `| ${codeCell(r.id)} | ${r.level} | ${markdownCell(r.statement)} | ${icon[r.verdict]} ${markdownCell(verdictText(r, verdictLabel[r.verdict]))}${r.reason === undefined ? '' : `<br><sub>${markdownCell(r.reason)}</sub>`} | ${r.tests.map(markdownCell).join('<br>')} |`,
        ),
        '',
        '</details>',
        '',
      ];
    }),
  ];
}
