/**
 * Any single Unicode code point (no lone surrogate), as a string unit for `fc.string`: the same values as
 * fast-check's `unit: 'binary'` for the same seed, built cheaply. fast-check's own unit builds a reverse map
 * of all 1,112,064 code points when `fc.string` is built, a heavy cost in every process that imports a
 * suite file using it; here a code point's index is computed instead of looked up.
 */
import fc from 'fast-check';

const surrogatesStart = 0xd800;
const surrogatesCount = 0x800;
const lastIndex = 0x10ffff - surrogatesCount;

const toCodePoint = (index: number): number => (index < surrogatesStart ? index : index + surrogatesCount);

/** The index of a one-code-point string, as fast-check's mapToConstant numbers it; throws for anything else. */
function indexOf(value: unknown): number {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2) throw new Error('not a single code point');
  const codePoint = value.codePointAt(0) ?? -1;
  if (String.fromCodePoint(codePoint) !== value) throw new Error('not a single code point');
  if (codePoint >= surrogatesStart && codePoint < surrogatesStart + surrogatesCount)
    throw new Error('a lone surrogate');
  return codePoint < surrogatesStart ? codePoint : codePoint - surrogatesCount;
}

/** One code point: `fc.string({ unit: codePoint })` draws what `fc.string({ unit: 'binary' })` draws. */
export const codePoint: fc.Arbitrary<string> = fc
  .nat({ max: lastIndex })
  .map((index) => String.fromCodePoint(toCodePoint(index)), indexOf);
