import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-run.ts';
import type { Report } from './model.ts';
import { renderHtml } from './write-html.ts';

describe('report.html', () => {
  const html = renderHtml(fakeReport());

  it('matches the snapshot of the fixed fake run', async () => {
    await expect(html).toMatchFileSnapshot('./__snapshots__/report.html');
  });

  it('has a row per requirement, grouped by section, and a <details> per failing requirement', () => {
    const report = fakeReport();
    expect(html.match(/<tr class="row /g)).toHaveLength(report.requirements.length);
    expect(html.match(/<details class="failure"/g)).toHaveLength(report.summary.requirements.fail);
    expect(html.match(/<section class="spec-section"/g)).toHaveLength(
      new Set(report.requirements.map((r) => r.section)).size,
    );
    expect(html).toContain(
      '<button type="button" class="card v-fail" data-filter="fail" aria-pressed="false"><span class="num">6</span>',
    );
  });

  it('has the implementation-defined points as a table: each value with its count and tests, openapi.yaml’s text, the requirement', () => {
    const section = html.slice(html.indexOf('<section id="choices"'), html.indexOf('<section id="matrix"'));
    expect(section).toContain('<h2>Implementation-defined points</h2><span class="count">3</span>');
    expect(section.match(/<tr data-search=/g)).toHaveLength(3);
    expect(section).toContain(
      '<code class="point">idempotency-different-body</code><div class="stmt-sub"><b>Accepted</b> any 4xx with the error envelope',
    );
    expect(section).toContain('<b>Reference server</b> A key reused with a different body');
    expect(section).toContain(
      '<ul class="values"><li><span class="value">409 IDEMPOTENCY_KEY_CONFLICT</span> <span class="muted">×2</span></li></ul><div class="stmt-sub">idempotency &gt; replays the first try-on for a reused Idempotency-Key</div>',
    );
    // Values from different tests each name their own.
    const base = fakeReport();
    const mixed = renderHtml({
      ...base,
      choices: [
        {
          point: 'p',
          values: [
            { value: 'x', count: 1, tests: ['t1'] },
            { value: 'y', count: 1, tests: ['t2'] },
          ],
        },
      ],
    });
    expect(mixed).toContain(
      '<ul class="values"><li><span class="value">x</span><div class="stmt-sub">t1</div></li><li><span class="value">y</span><div class="stmt-sub">t2</div></li></ul></td>',
    );
    // A requirement in the report links to its matrix row.
    expect(section).toContain('<a class="rid" href="#req-LIMIT-429-RETRY-AFTER">LIMIT-429-RETRY-AFTER</a>');
  });

  it('shows inconclusive requirements and tests apart from failures, and a run error as its own outcome', () => {
    expect(html).toContain('<td><span class="badge v-inconclusive">inconclusive</span></td>');
    expect(html).toContain('<div class="reason">the test stopped when CREATE-ACCEPTED-IS-200 failed</div>');
    expect(html).toContain(
      '<span class="ts ts-inconclusive" title="inconclusive">?</span>uploads &gt; accepts a JPEG of exactly 4 MB',
    );
    const base = fakeReport();
    const errored = renderHtml({
      ...base,
      errors: [{ message: 'socket hang up' }],
      summary: { ...base.summary, outcome: 'error', errors: 1 },
    });
    expect(errored).toContain(
      '<div class="headline v-error"><div class="outcome-icon" aria-hidden="true">!</div><div><h1>Run error</h1>',
    );
    expect(errored).toContain('errors of the run itself, not findings about the target (exit status 2)');
  });

  it('is self-contained: no URL it would load, inline CSS and JS only', () => {
    expect(html).not.toMatch(/<(?:link|script|img|iframe|source)\b[^>]*\b(?:src|href)="(?!data:|#)/i);
    expect(html).not.toMatch(/url\(\s*['"]?(?!data:)/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/href="https?:/i);
  });

  it('escapes <script> in statements, messages and evidence', () => {
    const base = fakeReport();
    const evil = '<script>alert("x")</script>';
    const report: Report = {
      ...base,
      target: { ...base.target, baseUrl: `http://127.0.0.1/${evil}` },
      requirements: base.requirements.map((r) => ({
        ...r,
        id: r.verdict === 'fail' ? `${r.id}"><script>` : r.id,
        statement: `${r.statement} ${evil}`,
        tests: r.tests.map((t) => `${t} ${evil}`),
        failures: r.failures.map((f) => ({
          ...f,
          message: evil,
          expected: evil,
          received: evil,
          counterexample: evil,
          replay: { ...f.replay, command: evil },
          evidence: [{ curl: `curl '${evil}'`, status: 500, body: evil }],
        })),
      })),
    };
    const out = renderHtml(report);
    // One <script> element: the page's own.
    expect(out.match(/<script/gi)).toHaveLength(1);
    expect(out).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(out).not.toContain('"><script>');
  });
});
