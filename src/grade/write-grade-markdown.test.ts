/**
 * client-grade.md holds what callers sent (paths, headers such as Origin, keys of idempotency):
 * shown as text, never as an image, a link, raw HTML or a control byte, and never closing its fence.
 */
import { describe, expect, it } from 'vitest';
import { activeMarkdown, outsideFences } from '../shared/markdown-scan.ts';
import type { ClientGrade } from './grade.ts';
import { writeGrade } from './write-grade.ts';

const tag = '<img src=http://evil/p.png onerror=alert(1)>';
const later = '+0.100s GET /x`` <http://evil> → 404';
const referer = '![px](http://evil/p.png) [x](javascript:alert(1)) \x1b]0;pwned\x07';

/** A grade whose caller-chosen text is hostile everywhere it can be. */
function hostileGrade(): ClientGrade {
  const rule = {
    id: 'AUTH-KEY-SERVER-SIDE-ONLY',
    level: 'MUST',
    quote: 'The key stays on the server.',
    judged: 'browser signs',
    verdict: 'fail',
    occasions: 1,
    failures: [
      {
        what: `request with signs of a browser (Origin: ${tag}; Referer: ${referer})`,
        evidence: [`+0.000s GET /api/v1/account?q=\x1b[2J [Origin: ${tag}] → 200`, '```', later],
      },
    ],
  };
  const caller = { caller: `unknown key ${tag} \x9b2J`, requests: 1, notKept: 0, verdict: 'fail', rules: [rule] };
  const summary = { callers: 1, failingCallers: 1, pass: 0, fail: 1, notExercised: 0 };
  return { kind: 'client-grade', generatedAt: '2026-01-01T00:00:00.000Z', callers: [caller], summary } as ClientGrade;
}

describe('client-grade.md', () => {
  const md = writeGrade(hostileGrade(), 'markdown');

  it('shows an Origin header of HTML as text: no tag, image, link or autolink of the caller’s is active', () => {
    const active = activeMarkdown(md);
    expect(active).not.toMatch(/[<[\]`]/);
    expect(active).not.toMatch(/[a-z][a-z0-9+.-]*:\/\/|www\./i);
    expect(active).toContain('Origin: &lt;img src=');
  });

  it('keeps the evidence in one fence that no line of it closes', () => {
    expect(outsideFences(md).unclosed).toBe(false);
    expect(md).toContain('  ````text\n  +0.000s GET /api/v1/account?q=\\x1b[2J');
    expect(md).toContain('  ```\n  +0.100s GET /x`` <http://evil> → 404\n  ````');
  });

  it('carries no control byte', () => {
    expect(md).not.toMatch(/[^\P{Cc}\n]|\p{Bidi_Control}/u);
  });
});
