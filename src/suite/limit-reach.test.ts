/** The limit a rate-limit test fills (documented, declared, or none: skipped), and the 429 kept for the next test. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { ConformanceContext } from './conformance.ts';
import type { DeclaredLimits } from './declared-limits.ts';
import { limitToReach, noteOverStarts, ordinal, takeRecentOverStarts } from './limit-reach.ts';

class Skipped extends Error {}

/** The part of a test's context these helpers read, with what they recorded. */
function context(limits?: DeclaredLimits, control = false) {
  const chosen: string[] = [];
  const t = {
    target: { config: { limits }, ...(control && { control: {} }) },
    skip: (reason: string): never => {
      throw new Skipped(reason);
    },
    choose: (point: string, value: string) => chosen.push(`${point}: ${value}`),
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
