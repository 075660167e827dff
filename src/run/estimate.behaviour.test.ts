/**
 * estimateRun on the points the common cases leave open: files loaded once each, what a test needs in
 * credits at its turn, which tests count as run on leftovers, emptying the starts window, and the polls
 * of a test that waits for no try-on.
 */
import { describe, expect, it } from 'vitest';
import { estimateRun, expected, remoteAssumptions, type EstimatedTest } from './estimate.ts';

const bare = { ...remoteAssumptions, startupSeconds: 0, roundTripSeconds: 0, fileSeconds: 0 };
const test = (name: string, o: Partial<EstimatedTest> & { credits?: number; starts?: number } = {}): EstimatedTest => ({
  name,
  cost: { credits: o.credits ?? 0, starts: o.starts ?? 0, polls: 0, uploads: 0 },
  held: o.held ?? 0,
  ...(o.file !== undefined && { file: o.file }),
  ...(o.typical !== undefined && { typical: o.typical }),
});

describe('estimateRun (files, credits, the starts window)', () => {
  it('loads a file once before its first test; a test without a file stays in the file before it', () => {
    const a = { ...bare, fileSeconds: 3 };
    const e = estimateRun(
      [test('x', { file: 'a' }), test('y'), test('z', { file: 'a' }), test('w', { file: 'b' })],
      0,
      a,
    );
    expect(e.steps.map((s) => s.at)).toEqual([3, 3, 3, 6]);
  });

  it('skips a test whose credits do not fit in what is left after what was spent and what is held for later', () => {
    const e = estimateRun([test('first', { credits: 2, held: 2 }), test('then', { credits: 1 })], 2, bare);
    expect(e.steps.map((s) => s.name)).toEqual(['first']);
    expect(e.credits).toBe(2);
    const later = estimateRun([test('free', { credits: 1 }), test('held', { credits: 2, held: 2 })], 2, bare);
    expect(later.steps.map((s) => s.name)).toEqual(['held']);
  });

  it('counts only tests that spend credits without a hold as run on leftovers', () => {
    const e = estimateRun(
      [test('free'), test('granted', { credits: 1, held: 1 }), test('left', { credits: 1 })],
      5,
      bare,
    );
    expect(e.runOnLeftovers).toEqual(['left']);
  });

  it('starts a test that empties the starts window one window (plus margin) after the last start', () => {
    const e = estimateRun(
      [
        test('early', { starts: 1 }),
        { ...test('mid', { starts: 1 }), typical: { waitsSeconds: 10 } },
        { ...test('late', { starts: 1 }), typical: { waitsSeconds: 5 } },
        { ...test('emptier', { starts: 1 }), typical: { emptiesStartsWindow: true } },
        test('after'),
      ],
      0,
      { ...bare, roundTripSeconds: 1 },
    );
    // early starts at 0, mid at 1 (then waits 10 s), late at 12 (then waits 5 s): the window is empty at 72.25.
    expect(e.steps.map((s) => s.at)).toEqual([0, 1, 12, 18, 73.3]);
  });
});

describe('estimateRun (the pacer margin)', () => {
  it('holds the 13th start until the first has left the window and the margin, even a moment before', () => {
    const e = estimateRun(
      [{ ...test('a', { starts: 12 }), typical: { waitsSeconds: 59.9 } }, test('b', { starts: 1 }), test('c')],
      0,
      bare,
    );
    expect(e.steps.map((s) => s.at)).toEqual([0, 59.9, 60.3]);
  });
});

describe('expected (what a test sends)', () => {
  it('keeps the declared polls of a test that waits for no try-on', () => {
    const t: EstimatedTest = { name: 'x', cost: { credits: 0, starts: 1, polls: 7, uploads: 0 }, held: 0, typical: {} };
    expect(expected(t, remoteAssumptions).polls).toBe(7);
  });
});
