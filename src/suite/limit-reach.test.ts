/** The limit a rate-limit test fills (documented, declared, or none: skipped), and the 429 kept for the next test. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { ConformanceContext } from './conformance.ts';
import type { DeclaredLimits } from './declared-limits.ts';
import { limitedBelowDeclared, limitToReach, noteOverStarts, ordinal, takeRecentOverStarts } from './limit-reach.ts';

class Skipped extends Error {}
class Stopped extends Error {}

/** The part of a test's context these helpers read, with what they recorded. */
function context(limits?: DeclaredLimits, control = false) {
  const chosen: string[] = [];
  const t = {
    target: { config: { limits }, ...(control && { control: {} }) },
    skip: (reason: string): never => {
      throw new Skipped(reason);
    },
    choose: (point: string, value: string) => chosen.push(`${point}: ${value}`),
    inconclusive: (reason: string): never => {
      throw new Stopped(reason);
    },
  } as unknown as ConformanceContext;
  return { t, chosen };
}

const filled = { actor: { name: 'primary', key: 'k' }, body: {}, over: { seq: 1 } as unknown as Exchange };

describe('limitToReach', () => {
  it('fills the documented limit, and records a declared one', () => {
    expect(limitToReach(context().t, 'starts')).toBe(12);
    const declared = context({ starts: 120 });
    expect(limitToReach(declared.t, 'starts')).toBe(120);
    expect(limitToReach(declared.t, 'uploads')).toBe(30);
    expect(declared.chosen).toEqual(['starts-limit: 120 a minute, as declared (--limits)']);
  });

  it('skips, never fails, when the user declared that the target does not limit', () => {
    expect(() => limitToReach(context('none').t, 'polls')).toThrow(
      new Skipped('the run was told the target does not limit (--limits none): the polls limit cannot be reached'),
    );
  });

  it.each([
    [13, '13th'],
    [121, '121st'],
    [62, '62nd'],
    [31, '31st'],
    [112, '112th'],
  ])('names %i the %s', (n, word) => {
    expect(ordinal(n)).toBe(word);
  });
});

describe('limitedBelowDeclared', () => {
  it('ends the test inconclusive on a 429 past the documented limit and under the declared one, and only then', () => {
    const { t } = context({ starts: 120 });
    expect(() => limitedBelowDeclared(t, 'starts', 12, 120, 429)).toThrow(
      new Stopped(
        "starts request 13 of a fresh window was answered 429: past the spec's 12 a minute, but under the 120 declared with --limits, which this target does not have",
      ),
    );
    // Under the documented 12 a 429 is the spec's to judge; other answers, or no declaration over 12, pass through.
    expect(() => limitedBelowDeclared(t, 'starts', 11, 120, 429)).not.toThrow();
    expect(() => limitedBelowDeclared(t, 'starts', 12, 120, 403)).not.toThrow();
    expect(() => limitedBelowDeclared(t, 'uploads', 40, 30, 429)).not.toThrow();
  });
});

describe('the 429 kept for the next test', () => {
  afterEach(() => vi.useRealTimers());

  it('is taken once while its Retry-After runs, and not after it, nor with test control', () => {
    vi.useFakeTimers({ now: 0 });
    noteOverStarts(filled, 60);
    vi.advanceTimersByTime(30_000);
    expect(takeRecentOverStarts(context().t)).toMatchObject({ filled, at: 0, retryAfter: 60 });
    expect(takeRecentOverStarts(context().t)).toBeUndefined();
    noteOverStarts(filled, 60);
    vi.advanceTimersByTime(60_000);
    expect(takeRecentOverStarts(context().t)).toBeUndefined();
    noteOverStarts(filled, 60);
    expect(takeRecentOverStarts(context(undefined, true).t)).toBeUndefined();
  });
});
