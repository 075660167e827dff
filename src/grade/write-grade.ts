/**
 * The client grade in the usual formats: JSON, JUnit (one testsuite per caller, one testcase per
 * rule: a failure, or skipped when not exercised), Markdown and HTML. Everything from the caller
 * (paths, keys of idempotency) is untrusted text and is escaped, after one redaction for every
 * format (redact.ts: nothing shaped like an API key).
 */
import { escapeHtml, escapeXmlAttr, fence, markdownCell, markdownText, xmlSafe } from '../shared/escape.ts';
import type { CallerGrade, ClientGrade, GradedRule } from './grade.ts';
import { redactGrade } from './redact.ts';

export const gradeFormats = ['json', 'junit', 'markdown', 'html'] as const;
export type GradeFormat = (typeof gradeFormats)[number];

export const gradeMediaTypes: Record<GradeFormat, string> = {
  json: 'application/json; charset=utf-8',
  junit: 'application/xml; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
};
export const gradeFileNames: Record<GradeFormat, string> = {
  json: 'client-grade.json',
  junit: 'client-grade.junit.xml',
  markdown: 'client-grade.md',
  html: 'client-grade.html',
};

const mark = { pass: 'pass', fail: 'FAIL', 'not-exercised': 'not exercised' } as const;
const xmlText = (s: string): string => xmlSafe(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The grade in one format, redacted first. */
export function writeGrade(unredacted: ClientGrade, format: GradeFormat): string {
  const grade = redactGrade(unredacted);
  switch (format) {
    case 'json':
      return `${JSON.stringify(grade, null, 2)}\n`;
    case 'junit':
      return junit(grade);
    case 'markdown':
      return markdown(grade);
    case 'html':
      return html(grade);
  }
}

function headline(g: ClientGrade): string {
  const s = g.summary;
  const r = g.recording;
  const notKept = r && r.notKept > 0 ? `; ${r.notKept} older request(s) not kept, so not graded (${keptLine(r)})` : '';
  return `${s.callers} caller(s), ${s.failingCallers} breaking a client rule; rules: ${s.pass} pass, ${s.fail} fail, ${s.notExercised} not exercised${notKept}`;
}

function keptLine(r: NonNullable<ClientGrade['recording']>): string {
  const without = `callers without an account share ${r.withoutAccount}`;
  return `each account keeps its latest ${r.perAccount}, ${without}, ${r.accounts} accounts at most`;
}

function requestsLine(c: CallerGrade): string {
  return `${c.requests} request(s)${c.notKept > 0 ? `, and ${c.notKept} older one(s) not kept` : ''}.`;
}

function junit(g: ClientGrade): string {
  const suites = g.callers.map((c) => {
    const cases = c.rules.map((r) => {
      const name = `${r.id}: ${r.judged}`;
      const body =
        r.verdict === 'fail'
          ? `<failure message="${escapeXmlAttr(r.failures[0]?.what ?? 'failed')}">${xmlText(failureText(r))}</failure>`
          : r.verdict === 'not-exercised'
            ? `<skipped message="not exercised: the client never met this situation"/>`
            : '';
      return `    <testcase classname="${escapeXmlAttr(c.caller)}" name="${escapeXmlAttr(name)}">${body}</testcase>`;
    });
    const failures = c.rules.filter((r) => r.verdict === 'fail').length;
    const skipped = c.rules.filter((r) => r.verdict === 'not-exercised').length;
    return `  <testsuite name="client ${escapeXmlAttr(c.caller)}" tests="${c.rules.length}" failures="${failures}" skipped="${skipped}">\n${properties(c)}${cases.join('\n')}\n  </testsuite>`;
  });
  const total = g.callers.reduce((n, c) => n + c.rules.length, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="tryon client grade" tests="${total}" failures="${g.summary.fail}" skipped="${g.summary.notExercised}">\n${suites.join('\n')}\n</testsuites>\n`;
}

function properties(c: CallerGrade): string {
  const kept = `<property name="requests" value="${c.requests}"/>`;
  return `    <properties>${kept}<property name="requests not kept" value="${c.notKept}"/></properties>\n`;
}

function failureText(r: GradedRule): string {
  return r.failures.map((f) => [f.what, ...f.evidence.map((e) => `  ${e}`)].join('\n')).join('\n\n');
}

/** A block's lines indented into a list item. */
const indented = (block: string): string[] => block.split('\n').map((l) => `  ${l}`);

function markdown(g: ClientGrade): string {
  const out = [`# Client grade`, '', `${headline(g)} (at ${markdownText(g.generatedAt)}).`, ''];
  if (g.callers.length === 0) out.push('No client has called the sandbox yet.', '');
  for (const c of g.callers) {
    out.push(
      `## ${markdownCell(c.caller)}: ${mark[c.verdict]}`,
      '',
      requestsLine(c),
      '',
      '| Requirement | Verdict | Judged | Occasions |',
      '|---|---|---|---|',
    );
    for (const r of c.rules)
      out.push(`| ${r.id} (${r.level}) | ${mark[r.verdict]} | ${markdownCell(r.judged)} | ${r.occasions} |`);
    out.push('');
    for (const r of c.rules.filter((x) => x.verdict === 'fail')) {
      out.push(`### ${r.id}`, '', `> ${markdownCell(r.quote)}`, '');
      // The evidence (paths, headers the caller chose) as a fence no line of it can close, inside the list item.
      for (const f of r.failures)
        out.push(`- ${markdownCell(f.what)}`, '', ...indented(fence(f.evidence.join('\n'), 'text')), '');
    }
  }
  return `${out.join('\n')}\n`;
}

function html(g: ClientGrade): string {
  const callers = g.callers.map((c) => {
    const rows = c.rules
      .map(
        (r) =>
          `<tr class="${r.verdict}"><td>${escapeHtml(r.id)} (${r.level})</td><td>${mark[r.verdict]}</td><td>${escapeHtml(r.judged)}</td><td>${r.occasions}</td></tr>`,
      )
      .join('\n');
    const failures = c.rules
      .filter((r) => r.verdict === 'fail')
      .map(
        (r) =>
          `<h3>${escapeHtml(r.id)}</h3><blockquote>${escapeHtml(r.quote)}</blockquote>${r.failures.map((f) => `<p>${escapeHtml(f.what)}</p><pre>${escapeHtml(f.evidence.join('\n'))}</pre>`).join('')}`,
      )
      .join('\n');
    return `<section><h2>${escapeHtml(c.caller)}: ${mark[c.verdict]}</h2><p>${requestsLine(c)}</p><table><thead><tr><th>Requirement</th><th>Verdict</th><th>Judged</th><th>Occasions</th></tr></thead><tbody>${rows}</tbody></table>${failures}</section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Client grade</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}tr.fail td:nth-child(2){color:#b00;font-weight:bold}tr.pass td:nth-child(2){color:#070}tr.not-exercised td:nth-child(2){color:#777}pre{background:#f6f6f6;padding:.6em;overflow:auto}</style>
</head><body><h1>Client grade</h1><p>${escapeHtml(headline(g))} (at ${escapeHtml(g.generatedAt)}).</p>
${callers.join('\n') || '<p>No client has called the sandbox yet.</p>'}
</body></html>
`;
}
