import { describe, expect, it } from 'vitest';
import { pairedRatios, spread } from './spread.ts';

describe('spread', () => {
  it.each([
    ['one value', [3], { n: 1, min: 3, median: 3, max: 3 }],
    ['an odd count, unsorted', [5, 1, 3], { n: 3, min: 1, median: 3, max: 5 }],
    ['an even count: the mean of the middle two', [4, 1, 2, 8], { n: 4, min: 1, median: 3, max: 8 }],
    ['non-finite values left out', [Number.NaN, 2, Number.POSITIVE_INFINITY, 4], { n: 2, min: 2, median: 3, max: 4 }],
  ])('%s', (_name, values, want) => {
    expect(spread(values)).toEqual(want);
  });

  it('is undefined for no values', () => {
    expect(spread([])).toBeUndefined();
    expect(spread([Number.NaN])).toBeUndefined();
  });

  it('rounds to the digits asked for', () => {
    expect(spread([1 / 3], 3)).toEqual({ n: 1, min: 0.333, median: 0.333, max: 0.333 });
  });
});

describe('pairedRatios', () => {
  it('divides side by side, skipping a zero or missing denominator', () => {
    expect(pairedRatios([10, 20, 30, 40], [5, 0, 10])).toEqual([2, 3]);
  });
});
