import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-run.ts';
import type { Report } from './model.ts';
import { renderMarkdown } from './write-markdown.ts';

/** The Markdown with fenced code blocks removed: what GitHub would render as Markdown and HTML. */
function outsideFences(md: string): string {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    const bar = /^(`{3,})/.exec(line)?.[1];
    if (fence === undefined && bar !== undefined) fence = bar;
    else if (fence !== undefined && bar !== undefined && line.trim() === bar && bar.length >= fence.length) fence = undefined;
    else if (fence === undefined) kept.push(line);
  }
  expect(fence, 'every fence is closed').toBeUndefined();
  return kept.join('\n');
}

describe('report.md', () => {
  const md = renderMarkdown(fakeReport());

  it('opens with the outcome and the summary table', () => {
    expect(md.split('\n')[0]).toBe('## ❌ Does not conform: 4 MUST requirements failing');
    expect(md).toContain('| ❌ fail | 6 | 4 | 1 | 1 |');
    expect(md).toContain('| **total** | **20** | 17 | 2 | 1 |');
    expect(md).toContain('Pass rate **57.1%**');
  });

  it('lists failures first, MUST before SHOULD, each with its ID, statement, expected/received, replay command and curl', () => {
    const failures = md.slice(md.indexOf('### Failures'), md.indexOf('### Traceability'));
    expect(md.indexOf('### Failures')).toBeLessThan(md.indexOf('### Traceability'));
    expect(failures.indexOf('`CREATE-TITLE-OPTIONAL-UP-TO-120`')).toBeLessThan(failures.indexOf('`SVC-MOST-RESULTS-UNDER-30-SECONDS`'));
    expect(failures).toContain('#### ❌ `CREATE-TITLE-OPTIONAL-UP-TO-120` · MUST');
    expect(failures).toContain('> title is optional: a create without it, or with a product name of up to 120 characters, is accepted.');
    expect(failures).toContain('| **expected** | `200, 400, 401, 402, 409, 415, 422, 429, 500, 503` |');
    expect(failures).toContain('| **received** | `500` |');
    expect(failures).toContain('```sh\nnpx tryon-conformance run --base-url "http://127.0.0.1:8787/api/v1" --seed 1234567 --path 2:0:1 --grep "replays the first try-on for a reused Idempotency-Key"\n```');
    expect(failures).toMatch(/```sh\ncurl -sS -i -X POST \\\n {2}-H 'authorization: Bearer \$TRYON_API_KEY' \\\n/);
  });

  it('has the traceability table grouped by section, sections with failures open', () => {
    expect(md).toContain('<details open><summary><b>Endpoints</b> — ❌ 3 · ✅ 2</summary>');
    expect(md).toContain('<details><summary><b>Limits</b> — ✅ 2</summary>');
    expect(md).toContain('| `AUTH-REVOKED-KEY-401` | MUST | A revoked key gets 401 INVALID_API_KEY on every endpoint. | ⏭️ skip<br><sub>needs revoked-key:');
  });

  it('keeps untrusted text from breaking out: no raw HTML, no broken tables, no broken fences', () => {
    const base = fakeReport();
    const report: Report = {
      ...base,
      requirements: base.requirements.map((r) => ({
        ...r,
        statement: '<script>alert(1)</script> a|b',
        failures: r.failures.map((f) => ({ ...f, message: 'ends ``` here', evidence: [{ curl: 'curl ```x', status: 500, body: '<img src=x onerror=alert(1)>' }] })),
      })),
    };
    const out = renderMarkdown(report);
    expect(outsideFences(out)).not.toMatch(/<script|<img/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt; a\\|b');
    expect(out).toContain('````text\nends ``` here\n````');
    // The body sits inside a fence, where GitHub shows it as text.
    expect(out).toContain('```text\n<img src=x onerror=alert(1)>\n```');
  });
});
