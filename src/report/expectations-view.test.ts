import { describe, expect, it } from 'vitest';
import { withExpectations, type Expectation } from './expectations.ts';
import { expectationLines } from './expectations-view.ts';
import { fakeReport } from './fake-run.ts';
import { renderHtml } from './write-html.ts';
import { renderJunit } from './write-junit.ts';
import { renderMarkdown } from './write-markdown.ts';

const hostile = 'known <img src=x onerror=alert(1)> \u001b]0;pwned\u0007 [x](javascript:alert(1)) ]]> \u202e';
const entries: Expectation[] = [
  { id: 'CREATE-IDEMPOTENCY-REPLAY', reason: hostile, link: 'https://tickets.example/1?a=<b>&c="d"' },
  { id: 'AUTH-BEARER-REQUIRED', reason: 'no auth on the mock', expires: '2027-01-31' },
];
const report = withExpectations(
  fakeReport(),
  { file: 'expect\u001b[2J.yaml', strict: false, entries },
  new Date('2026-11-27T00:00:00Z'),
);

describe('known failures in each output', () => {
  it('ends a run in the terminal with the counts and what to do about a stale entry', () => {
    expect(expectationLines(report)).toEqual([
      'Known failures (--expect expect\\x1b[2J.yaml): 1 unexpectedly passing, 1 failing as expected',
      '  unexpectedly passing: AUTH-BEARER-REQUIRED (expires 2027-01-31): it passes now: remove the entry',
    ]);
    expect(expectationLines(fakeReport())).toEqual([]);
  });

  it('lists the entries in report.md, the reason escaped, and marks the expected failure', () => {
    const md = renderMarkdown(report);
    expect(md).toContain('### Known failures (2)');
    expect(md).toContain('| AUTH-BEARER-REQUIRED | unexpectedly passing | no auth on the mock |');
    expect(md).toMatch(/#### ❌ `CREATE-IDEMPOTENCY-REPLAY` · MUST \(failing as expected, --expect\)/);
    expect(md).not.toContain('<img src=x');
    expect(md).not.toContain('\u001b');
    expect(md).not.toContain('\u202e');
    expect(md).not.toContain('[x](javascript:');
  });

  it('lists the entries in report.html, escaped, with the link as an http(s) anchor', () => {
    const html = renderHtml(report);
    expect(html).toContain('<section id="expectations" aria-label="Known failures">');
    expect(html).toContain('href="https://tickets.example/1?a=&lt;b&gt;&amp;c=&quot;d&quot;"');
    expect(html).toContain('<span class="tag">failing as expected, --expect</span>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('\u001b');
    expect(html).not.toContain('\u202e');
  });

  it('reports an expected failure in junit.xml as skipped, with its failure kept in the output', () => {
    const xml = renderJunit(report);
    const testcase = /<testcase [^>]*name="CREATE-IDEMPOTENCY-REPLAY"[^>]*>([\s\S]*?)<\/testcase>/.exec(xml)?.[1] ?? '';
    expect(testcase).toContain('<skipped message="expected failure (--expect): known &lt;img src=x');
    expect(testcase).not.toContain('<failure');
    expect(testcase).toContain('<system-err><![CDATA[CREATE-IDEMPOTENCY-REPLAY (MUST)');
    expect(xml).not.toContain('\u001b');
    const failures = (x: string) => Number(/<testsuites [^>]*failures="(\d+)"/.exec(x)?.[1]);
    expect(failures(xml)).toBe(failures(renderJunit(fakeReport())) - 1);
  });
});
