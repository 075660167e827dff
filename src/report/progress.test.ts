import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startVitest } from 'vitest/node';
import { fakeModules, fakeTest } from './fake-run.ts';
import { liveProgress, ProgressReporter, type ProgressTest } from './progress.ts';
import { ProgressEvents } from '../shared/progress-events.ts';

function allFakeTests(): ProgressTest[] {
  return fakeModules().flatMap((m) => [...m.children.allTests()]);
}

describe('ProgressReporter', () => {
  it('is live only on a terminal outside CI', () => {
    expect(liveProgress({ isTTY: true }, {})).toBe(true);
    expect(liveProgress({ isTTY: true }, { CI: 'true' })).toBe(false);
    expect(liveProgress({ isTTY: true }, { CI: 'false' })).toBe(true);
    expect(liveProgress({ isTTY: false }, {})).toBe(false);
    expect(liveProgress({}, {})).toBe(false);
  });

  it('prints one plain line per finished test in CI: ✓, ✗ with the failed requirement or the first line of the error, ? with why it is inconclusive, ↓ with the reason', () => {
    let out = '';
    let clock = 0;
    const reporter = new ProgressReporter({
      live: false,
      write: (t) => (out += t),
      creditBudget: 8,
      now: () => clock,
      events: new ProgressEvents(),
    });
    reporter.onTestRunStart();
    const tests = allFakeTests();
    for (const t of tests) {
      reporter.onTestCaseReady(t);
      reporter.onTestCaseResult(t);
    }
    clock = 192_345;
    reporter.onTestRunEnd([], []);
    expect(out.split('\n')).toEqual([
      '✓ authentication > gives 401 INVALID_API_KEY for any missing or malformed Authorization, on every operation [AUTH-BEARER-REQUIRED, ERR-INVALID-API-KEY]',
      '↓ authentication > a revoked key gets 401 INVALID_API_KEY [AUTH-REVOKED-KEY-401] (needs revoked-key: no revoked key was given (TRYON_REVOKED_API_KEY) and the target has no test control)',
      '✗ idempotency > replays the first try-on for a reused Idempotency-Key [CREATE-IDEMPOTENCY-REPLAY, CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE]',
      "    expected 'ton_01', received 'ton_02'",
      '✗ body rules > refuses a title over 120 characters with 400 INVALID_REQUEST [CREATE-TITLE-OPTIONAL-UP-TO-120, ERR-TITLE-TOO-LONG-IMPL-DEFINED]',
      '    CREATE-TITLE-OPTIONAL-UP-TO-120: Undocumented status code: received 500; documented 200, 400, 401, 402, 409, 415, 422, 429, 500, 503',
      '    ERR-ENVELOPE-SHAPE: Error body is not the {error, code} envelope: received {"message":"Internal Server Error"}; documented {"error": string, "code": ErrorCode}',
      '✗ create > an accepted start answers 200 with {id, status, pollUrl}, status pending [CREATE-ACCEPTED-IS-200, CREATE-RESPONSE-STATUS-PENDING]',
      '    CREATE-ACCEPTED-IS-200: status differs: expected 200, received 201',
      '? uploads > accepts a JPEG of exactly 4 MB [RES-IMAGE-UP-TO-4MB-ACCEPTED] (inconclusive: the fixture host answered 503 for the 4 MB image, so the upload could not be tried)',
      '✓ rate limits > the 13th start in a minute gets 429 RATE_LIMITED with Retry-After [LIMIT-STARTS-12-PER-MINUTE, LIMIT-429-RETRY-AFTER]',
      '✓ routing > unknown paths get 404 NOT_FOUND [ROUTING-UNKNOWN-PATH-404, ERR-NOT-FOUND]',
      '✓ sync > answers 200 with the final try-on when it finishes within the wait [SYNC-200-ON-SUCCESS, STATE-CREATE-STARTS-PENDING]',
      '✗ sync > most try-ons finish within 30 seconds [SVC-MOST-RESULTS-UNDER-30-SECONDS]',
      '    expected less than 30000 (median of 3 try-ons, ms), received 41200',
      '↓ credits > a failed try-on gives its credit back [SVC-FAILED-TRYON-REFUNDED] (needs scenarios: the target is not known to follow the tryon-scenario convention (set TRYON_SCENARIOS=1 if it does))',
      'Tests: 11 (4 passed, 4 failed, 1 inconclusive, 2 skipped) · credits ≤ 7 of 8 · 3 min 12 s',
      '',
    ]);
  });

  it('keeps one live line on a terminal: done/total, the requirement under test, credits, and a rate-limit countdown', () => {
    let out = '';
    let clock = 1_000;
    const events = new ProgressEvents();
    const reporter = new ProgressReporter({
      live: true,
      write: (t) => (out += t),
      columns: () => 120,
      creditBudget: 8,
      now: () => clock,
      events,
      tickMs: 60_000,
    });
    const [a, b] = allFakeTests();
    reporter.onTestRunStart(['auth.suite.ts', 'idempotency.suite.ts']);
    reporter.onTestModuleCollected({ children: { allTests: () => allFakeTests().slice(0, 2) } });
    reporter.onTestCaseReady(a!);
    expect(reporter.statusLine()).toBe(
      '0/2+ tests · file 1/2 │ ✓ 0 ✗ 0 ↓ 0 │ credits ≤ 0 of 8 │ AUTH-BEARER-REQUIRED +1 │ authentication > gives 401 INVALID_…',
    );
    expect([...reporter.statusLine()]).toHaveLength(119);

    events.emit('wait', { what: 'the starts rate limit', ms: 42_000, exact: true });
    expect(reporter.statusLine()).toContain('│ waiting ≤ 42 s more for the starts rate limit │');
    clock += 10_000;
    expect(reporter.statusLine()).toContain('│ waiting ≤ 32 s more for the starts rate limit (10 s so far) │');
    clock += 40_000;
    expect(reporter.statusLine()).not.toContain('waiting');

    reporter.onTestCaseResult(
      fakeTest({
        name: 'x',
        state: 'passed',
        requirements: ['AUTH-BEARER-REQUIRED'],
        meta: { cost: { credits: 3, starts: 0, polls: 0, uploads: 0 } },
      }),
    );
    reporter.onTestModuleCollected({ children: { allTests: () => allFakeTests().slice(2) } });
    reporter.onTestCaseReady(b!);
    expect(reporter.statusLine()).toBe(
      '1/11 tests · file 2/2 │ ✓ 1 ✗ 0 ↓ 0 │ credits ≤ 3 of 8 │ AUTH-REVOKED-KEY-401 │ authentication > a revoked key gets 40…',
    );
    // Every redraw starts with a carriage return and a line clear, and the line never wraps.
    expect(
      out
        .split('\r\x1b[2K')
        .slice(1)
        .every((line) => [...line].length < 120),
    ).toBe(true);

    out = '';
    reporter.onTestCaseResult(
      fakeTest({
        name: 'breaks',
        describe: 'd',
        state: 'failed',
        requirements: ['ERR-NOT-FOUND'],
        errors: [{ message: 'expected 500 to be 404' }],
      }),
    );
    expect(
      out.startsWith('\r\x1b[2K✗ d > breaks [ERR-NOT-FOUND]\n    expected 404, received 500\n\r\x1b[2K2/11 tests'),
    ).toBe(true);

    out = '';
    reporter.onTestCaseResult(
      fakeTest({
        name: 'times out',
        describe: 'd',
        state: 'failed',
        requirements: ['ERR-NOT-FOUND'],
        errors: [{ message: '[ERR-NOT-FOUND] inconclusive: inconclusive: Test timed out in 120000ms.' }],
      }),
    );
    expect(
      out.startsWith(
        '\r\x1b[2K? d > times out [ERR-NOT-FOUND] (inconclusive: Test timed out in 120000ms.)\n\r\x1b[2K3/11 tests · file 2/2 │ ✓ 1 ✗ 1 ? 1 ↓ 0 │',
      ),
    ).toBe(true);

    out = '';
    reporter.onTestRunEnd([], []);
    expect(out).toBe('\r\x1b[2KTests: 3 (1 passed, 1 failed, 1 inconclusive, 0 skipped) · credits ≤ 3 of 8 · 50 s\n');
  });

  it('shows the waits of a real vitest run, sent from its worker process', async () => {
    let out = '';
    const reporter = new ProgressReporter({ live: false, write: (t) => (out += t), events: new ProgressEvents() });
    const root = fileURLToPath(new URL('./__fixtures__/progress/', import.meta.url));
    // Vite's cache would land in <root>/node_modules; keep it out of src/.
    const cacheDir = await mkdtemp(join(tmpdir(), 'tryon-progress-'));
    try {
      const vitest = await startVitest(
        'test',
        [],
        { root, config: false, include: ['*.fixture.ts'], watch: false, reporters: [reporter] },
        { cacheDir },
      );
      await vitest.close();
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
    expect(out).toContain('… waiting 7 s for the starts rate limit\n');
    expect(out).toContain('✓ waits on the starts limit [LIMIT-STARTS-12-PER-MINUTE]\n');
    expect(out).toContain(
      '↓ is skipped for want of a capability [AUTH-REVOKED-KEY-401] (needs revoked-key: not offered)\n',
    );
    expect(out).toMatch(/Tests: 2 \(1 passed, 0 failed, 1 skipped\) · credits ≤ 2 · /);
  });

  it('shows what a target wrote into names, reasons and errors, never obeys it: no ESC, BEL or C1 of its own reaches the terminal', () => {
    const osc = '\x1b]0;pwned\x07';
    const tests = [
      fakeTest({
        name: `clears \x1b[2J`,
        describe: osc,
        state: 'failed',
        requirements: ['ERR-NOT-FOUND'],
        errors: [{ message: `expected ${osc} to be \x9b2J` }],
      }),
      fakeTest({
        name: 'stops',
        state: 'failed',
        requirements: ['ERR-NOT-FOUND'],
        meta: { inconclusive: `the target answered \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\` },
      }),
      fakeTest({ name: 'skips', state: 'skipped', requirements: ['AUTH-REVOKED-KEY-401'], note: `no\rFAKE \u202e` }),
    ];
    for (const live of [false, true]) {
      let out = '';
      const events = new ProgressEvents();
      const reporter = new ProgressReporter({
        live,
        write: (t) => (out += t),
        columns: () => 200,
        now: () => 0,
        events,
        tickMs: 60_000,
      });
      reporter.onTestRunStart(['x.suite.ts']);
      reporter.onTestModuleCollected({ children: { allTests: () => tests } });
      events.emit('wait', { what: `the starts${osc} rate limit`, ms: 6_000, exact: true });
      for (const t of tests) {
        reporter.onTestCaseReady(t);
        reporter.onTestCaseResult(t);
      }
      reporter.onTestRunEnd([], []);
      // The reporter's own line clear is the only control sequence; everything else is shown as text.
      const text = out.replaceAll('\r\x1b[2K', '');
      expect(text, live ? 'live' : 'plain').not.toMatch(/[^\P{Cc}\n]|\p{Bidi_Control}/u);
      expect(text).toContain('\\x1b]0;pwned\\x07 > clears \\x1b[2J');
      expect(text).toContain('expected \\x9b2J, received \\x1b]0;pwned\\x07');
    }
  });
});
