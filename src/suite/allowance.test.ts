import { describe, expect, it } from 'vitest';
import { allowanceMs } from './allowance.ts';

const cost = (starts: number, polls = 0, uploads = 0) => ({ credits: 0, starts, polls, uploads });

describe('allowanceMs', () => {
  it.each([
    ['nothing declared', { cost: cost(0), asked: undefined, want: 120_000 }],
    ['12 starts: one window to wait out at most', { cost: cost(12), asked: undefined, want: 180_000 }],
    ['24 starts (the consent test): two windows', { cost: cost(24), asked: undefined, want: 240_000 }],
    [
      'starts, polls and uploads each count their own windows',
      { cost: cost(13, 61, 31), asked: undefined, want: 120_000 + 6 * 60_000 },
    ],
    ['a test that asks for more keeps its ask, plus the windows', { cost: cost(1), asked: 300_000, want: 360_000 }],
  ])('%s', (_name, { cost: c, asked, want }) => {
    expect(allowanceMs(c, asked)).toBe(want);
  });
});
