/**
 * Never silent: in plain (CI, non-TTY) output the reporter says at least every 10 s what the run waits for,
 * how long it has waited, and how long it may still wait. Vitest's fake timers drive its tick, and the
 * clock it reads: no real time passes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressEvents } from '../shared/progress-events.ts';
import { fakeTest } from './fake-run.ts';
import { ProgressReporter } from './progress.ts';

/** A plain reporter whose every write is kept with the fake time it was made at. */
function plainReporter() {
  const lines: Array<{ at: number; text: string }> = [];
  const events = new ProgressEvents();
  const reporter = new ProgressReporter({
    live: false,
    write: (text) => lines.push({ at: Date.now(), text }),
    events,
  });
  return { reporter, events, lines };
}

const polling = fakeTest({
  name: 'polls a try-on to success',
  describe: 'results',
  state: 'passed',
  requirements: ['RES-RESULT-URL-ON-SUCCESS'],
  meta: { allowanceMs: 300_000 },
});

/** The longest stretch between two writes, from `from` to `to`. */
function longestSilence(lines: ReadonlyArray<{ at: number }>, from: number, to: number): number {
  const times = [from, ...lines.map((l) => l.at).filter((at) => at >= from && at <= to), to];
  return Math.max(...times.slice(1).map((at, i) => at - (times[i] ?? at)));
}

describe('ProgressReporter heartbeat (plain output)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is never 10 s silent through a long poll, and says what it waits for, for how long, and how much longer', () => {
    const { reporter, events, lines } = plainReporter();
    reporter.onTestRunStart(['results.suite.ts']);
    reporter.onTestModuleCollected({ children: { allTests: () => [polling] } });
    reporter.onTestCaseReady(polling);
    const start = Date.now();
    events.emit('wait', { what: 'try-on ton_7 to leave pending', ms: 150_000 });
    vi.advanceTimersByTime(150_000);
    expect(longestSilence(lines, start, Date.now())).toBeLessThanOrEqual(10_000);
    const first = lines.find((l) => l.text.includes('ton_7'));
    expect(first?.text).toBe(
      '… waiting for try-on ton_7 to leave pending: 8.0 s so far, at most 2 min 22 s more (results > polls a try-on to success)\n',
    );
    expect(lines.at(-1)?.text).toMatch(/^… waiting for try-on ton_7 to leave pending: 2 min 2\d s so far, at most /);
    reporter.onTestRunEnd([], []);
  });

  it('names the running test and its time limit once the wait is over, and the next test while none runs', () => {
    const { reporter, events, lines } = plainReporter();
    reporter.onTestRunStart(['results.suite.ts']);
    reporter.onTestModuleCollected({ children: { allTests: () => [polling] } });
    reporter.onTestCaseReady(polling);
    events.emit('wait', { what: 'the answer of POST /tryons/sync', ms: 85_000 });
    vi.advanceTimersByTime(3_000);
    events.emit('waited', { what: 'the answer of POST /tryons/sync' });
    vi.advanceTimersByTime(6_000);
    expect(lines.at(-1)?.text).toBe(
      '… running results > polls a try-on to success: 8.0 s so far, at most 4 min 52 s more (0/1 tests done)\n',
    );
    reporter.onTestCaseResult(polling);
    const after = lines.length;
    vi.advanceTimersByTime(9_000);
    expect(lines.slice(after).map((l) => l.text)).toEqual(['… waiting for the next test to start (1/1 tests done)\n']);
    reporter.onTestRunEnd([], []);
  });

  it('announces an exact wait of 5 s or more at once, once, and leaves short or repeated ones to the heartbeat', () => {
    const { reporter, events, lines } = plainReporter();
    reporter.onTestRunStart(['x.suite.ts']);
    reporter.onTestCaseReady(polling);
    events.emit('wait', { what: 'the starts rate limit', ms: 4_000, exact: true });
    events.emit('wait', { what: 'the polls rate limit', ms: 41_000, exact: true });
    events.emit('wait', { what: 'the polls rate limit', ms: 40_000, exact: true });
    expect(lines.map((l) => l.text)).toEqual(['… waiting 41 s for the polls rate limit\n']);
    vi.advanceTimersByTime(8_000);
    expect(lines.at(-1)?.text).toMatch(/^… waiting for the polls rate limit: 8\.0 s so far, at most 32 s more/);
    reporter.onTestRunEnd([], []);
  });

  it('stops its tick when the run ends: nothing is written after the last line', () => {
    const { reporter, lines } = plainReporter();
    reporter.onTestRunStart([]);
    reporter.onTestRunEnd([], []);
    const written = lines.length;
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(written);
  });
});
