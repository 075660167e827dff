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
    expect(html.match(/<section class="spec-section"/g)).toHaveLength(new Set(report.requirements.map((r) => r.section)).size);
    expect(html).toContain('<button type="button" class="card v-fail" data-filter="fail" aria-pressed="false"><span class="num">6</span>');
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
        failures: r.failures.map((f) => ({ ...f, message: evil, expected: evil, received: evil, counterexample: evil, replay: { ...f.replay, command: evil }, evidence: [{ curl: `curl '${evil}'`, status: 500, body: evil }] })),
      })),
    };
    const out = renderHtml(report);
    // One <script> element: the page's own.
    expect(out.match(/<script/gi)).toHaveLength(1);
    expect(out).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(out).not.toContain('"><script>');
  });
});
