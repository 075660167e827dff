import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePoint } from './code-points.ts';

describe('codePoint', () => {
  it("draws, as a string unit, exactly what fast-check's 'binary' unit draws for the same seed", () => {
    // Building fast-check's own unit costs its reverse map once in this process; that is the point of the comparison.
    for (const seed of [1, 2, 3, 7, 20261122]) {
      const ours = fc.sample(fc.string({ unit: codePoint, maxLength: 140 }), { seed, numRuns: 200 });
      const theirs = fc.sample(fc.string({ unit: 'binary', maxLength: 140 }), { seed, numRuns: 200 });
      expect(ours).toEqual(theirs);
    }
  });

  it('shrinks a failing string the way the binary unit does', () => {
    const failing = (unit: fc.Arbitrary<string> | 'binary') => {
      const outcome = fc.check(
        fc.property(fc.string({ unit, maxLength: 40 }), (s) => !/[\u{10000}-\u{10ffff}]/u.test(s)),
        { seed: 5, numRuns: 1000 },
      );
      return outcome.counterexample;
    };
    const ours = failing(codePoint);
    expect(ours).not.toBeNull();
    expect(ours).toEqual(failing('binary'));
  });

  it('maps every code point outside the surrogates back to itself, and refuses surrogates and longer strings', () => {
    for (const s of ['\u0000', 'a', '\ud7ff', '\ue000', '\u{10000}', '\u{10ffff}', '😀'])
      expect(codePoint.canShrinkWithoutContext(s)).toBe(true);
    for (const s of ['', 'ab', '\ud800', '\udfff', '\ud83d', 'a\u0301'] as unknown[])
      expect(codePoint.canShrinkWithoutContext(s)).toBe(false);
    expect(codePoint.canShrinkWithoutContext(7)).toBe(false);
  });
});
