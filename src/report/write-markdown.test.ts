import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-run.ts';
import { activeMarkdown } from '../shared/markdown-scan.ts';
import type { Report } from './model.ts';
import { renderMarkdown } from './write-markdown.ts';

/** The Markdown with fenced code blocks removed: what GitHub would render as Markdown and HTML. */
function outsideFences(md: string): string {
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    const bar = /^(`{3,})/.exec(line)?.[1];
    if (fence === undefined && bar !== undefined) fence = bar;
    else if (fence !== undefined && bar !== undefined && line.trim() === bar && bar.length >= fence.length)
      fence = undefined;
    else if (fence === undefined) kept.push(line);
  }
  expect(fence, 'every fence is closed').toBeUndefined();
  return kept.join('\n');
}

describe('report.md', () => {
  const md = renderMarkdown(fakeReport());

  it('opens with the outcome and the summary table', () => {
    expect(md.split('\n')[0]).toBe('## ❌ Does not conform: 5 MUST requirements failing');
    expect(md).toContain('| ❌ fail | 6 | 5 | 1 | 0 |');
    expect(md).toContain('| ❔ inconclusive | 2 | 2 | 0 | 0 |');
    expect(md).toContain('| **total** | **23** | 20 | 2 | 1 |');
    expect(md).toContain('Pass rate **60%** of the judged requirements (9 of 15)');
    expect(md).toContain('2 requirements are inconclusive: every test covering them stopped before judging them');
  });

  it('has the implementation-defined points as a table after the summary: what the target did, with openapi.yaml’s text for the point', () => {
    const section = md.slice(md.indexOf('### Implementation-defined points (3)'), md.indexOf('### Failures'));
    expect(md.indexOf('### Implementation-defined points')).toBeGreaterThan(md.indexOf('Pass rate'));
    expect(section).toContain('| Point | What this target did | Requirement | Tests |');
    expect(section).toContain(
      '| `idempotency-different-body`<br><sub>Accepted: any 4xx with the error envelope, or a replay of the earlier try-on. Never a new try-on or a second charge.</sub> | `409 IDEMPOTENCY_KEY_CONFLICT` (×2) | `CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED` | idempotency &gt; replays the first try-on for a reused Idempotency-Key |',
    );
    // What the target did is its own text, so a code span, where nothing it wrote can link.
    // A point openapi.yaml does not name gets no text; one the test left without a requirement gets the catalogue's.
    expect(section).toContain(
      '| `retry-after-window` | `rolling window, Retry-After 47 s` | `LIMIT-429-RETRY-AFTER` |',
    );
    expect(section).toContain('| `counted in UTF-16 code units` | `ERR-TITLE-TOO-LONG-IMPL-DEFINED` |');
    expect(renderMarkdown({ ...fakeReport(), choices: [] })).toContain('This run recorded no such choice.');
  });

  it('shows a broken rule by the fields that differ, not by vitest’s abbreviated objects', () => {
    const failure = md.slice(md.indexOf('#### ❌ `CREATE-ACCEPTED-IS-200`'));
    expect(failure).toContain('```text\nstatus differs: expected 200, received 201\n```');
    expect(failure).toContain('| **expected** | `status: 200` |\n| **received** | `status: 201` |');
    expect(md).not.toContain('…(3)');
  });

  it('opens with the run errors when the run had errors of its own', () => {
    const out = renderMarkdown({
      ...fakeReport(),
      errors: [{ file: 'src/suite/x.suite.ts', message: 'SyntaxError: oops' }],
      summary: { ...fakeReport().summary, outcome: 'error', errors: 1 },
    });
    expect(out.split('\n')[0]).toBe(
      '## ⚠️ Run error: 1 error of the run itself; the verdicts are incomplete (5 MUST requirements failing, 2 inconclusive)',
    );
    expect(out.indexOf('### Run errors (1)')).toBeLessThan(out.indexOf('### Failures'));
    expect(out).toContain('Errors of the run itself, not findings about the target (exit status 2).');
    const nothing = renderMarkdown({
      ...fakeReport(),
      summary: { ...fakeReport().summary, outcome: 'error', errors: 0 },
    });
    expect(nothing.split('\n')[0]).toBe(
      '## ⚠️ Run error: no requirement was judged; every test that ran stopped before judging (2 inconclusive)',
    );
  });

  it('lists failures first, MUST before SHOULD, each with its ID, statement, expected/received, replay command and curl', () => {
    const failures = md.slice(md.indexOf('### Failures'), md.indexOf('### Traceability'));
    expect(md.indexOf('### Failures')).toBeLessThan(md.indexOf('### Traceability'));
    expect(failures.indexOf('`CREATE-TITLE-OPTIONAL-UP-TO-120`')).toBeLessThan(
      failures.indexOf('`SVC-MOST-RESULTS-UNDER-30-SECONDS`'),
    );
    expect(failures).toContain('#### ❌ `CREATE-TITLE-OPTIONAL-UP-TO-120` · MUST');
    expect(failures).toContain(
      '> title is optional: a create without it, or with a product name of up to 120 characters, is accepted.',
    );
    expect(failures).toContain('| **expected** | `200, 400, 401, 402, 409, 415, 422, 429, 500, 503` |');
    expect(failures).toContain('| **received** | `500` |');
    expect(failures).toContain(
      '```sh\nnpx tryon-conformance run --base-url "http://127.0.0.1:8787/api/v1" --seed 1234567 --path 2:0:1 --grep "replays the first try-on for a reused Idempotency-Key"\n```',
    );
    expect(failures).toMatch(/```sh\ncurl -sS -i -X POST \\\n {2}-H "authorization: Bearer \$TRYON_API_KEY" \\\n/);
  });

  it('has the traceability table grouped by section, sections with failures open', () => {
    expect(md).toContain('<details open><summary><b>Endpoints</b> — ❌ 4 · ✅ 2 · ❔ 1</summary>');
    expect(md).toContain('| `CREATE-RESPONSE-STATUS-PENDING` | MUST | ');
    expect(md).toContain(' | ❔ inconclusive<br><sub>the test stopped when CREATE-ACCEPTED-IS-200 failed</sub> |');
    expect(md).toContain('<details><summary><b>Limits</b> — ✅ 2</summary>');
    expect(md).toContain(
      '| `AUTH-REVOKED-KEY-401` | MUST | A revoked key gets 401 INVALID_API_KEY on every endpoint. | ⏭️ skip<br><sub>needs revoked-key:',
    );
  });

  it('keeps untrusted text from breaking out: no raw HTML, no broken tables, no broken fences', () => {
    const base = fakeReport();
    const report: Report = {
      ...base,
      requirements: base.requirements.map((r) => ({
        ...r,
        statement: '<script>alert(1)</script> a|b',
        failures: r.failures.map((f) => ({
          ...f,
          message: 'ends ``` here',
          evidence: [{ curl: 'curl ```x', status: 500, body: '<img src=x onerror=alert(1)>' }],
        })),
      })),
    };
    const out = renderMarkdown(report);
    expect(outsideFences(out)).not.toMatch(/<script|<img/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt; a\\|b');
    expect(out).toContain('````text\nends ``` here\n````');
    // The body sits inside a fence, where GitHub shows it as text.
    expect(out).toContain('```text\n<img src=x onerror=alert(1)>\n```');
  });

  it('carries no image, link, raw HTML, autolink or control byte from the target, wherever its text lands', () => {
    const md = renderMarkdown(hostileReport(fakeReport()));
    expect(md).not.toMatch(/[^\P{Cc}\n\t]|\p{Bidi_Control}/u);
    const ownTags = /<\/?(?:br|sub|details|summary|b)(?: open)?>/g;
    const lines = activeMarkdown(md).split('\n');
    // A line that opens with <details> is an HTML block, where GitHub reads no Markdown; inert even if it did.
    const htmlBlocks = lines.filter((l) => l.startsWith('<details'));
    expect(htmlBlocks.length).toBeGreaterThan(0);
    expect(htmlBlocks.join('\n').replace(ownTags, '')).not.toMatch(/[<>[\]`]/);
    // Only the writer's own tags are HTML; a target's `<`, `[`, backtick or URL is escaped or in code.
    const active = lines.join('\n');
    expect(active.replace(ownTags, '')).not.toMatch(/[<[\]`]/);
    expect(active).not.toMatch(/[a-z][a-z0-9+.-]*:\/\/|www\.|[\w.+-]+@[\w-]+\.\w/i);
    // The hostile text is there, shown: in code, or escaped.
    expect(md).toContain(' \\x1b]0;pwned\\x07 ');
    expect(md).toContain('!\\[px\\](`http://evil/p.png)`');
  });
});

/** What a hostile target writes, in every form that breaks a terminal or Markdown. */
const hostileText = [
  '\x1b]0;pwned\x07',
  '\x1b[2J',
  '\x1b]8;;http://x\x1b\\x\x1b]8;;\x1b\\',
  '\x9b2J \u202e',
  '![px](http://evil/p.png)',
  '[x](javascript:alert(1))',
  '<img src=x onerror=alert(1)>',
  '<http://evil>',
  'https://evil.example/ www.evil.example x@evil.example',
  ']]> \x00 ``` `x` | a\\|b',
].join(' ');

// Words of the report's own vocabulary, which the writer looks up rather than prints.
const ownWords = new Set([
  'verdict',
  'level',
  'outcome',
  'profile',
  'schemaVersion',
  'state',
  'startedAt',
  'at',
  'openapiSha256',
  'coverage',
  'dimension',
]);

/** Every free-text string of a report (values, reasons, messages, evidence, names) with the hostile text appended. */
function hostileReport(report: Report): Report {
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === 'string') return ownWords.has(key) ? value : `${value} ${hostileText}`;
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(report, '') as Report;
}
