import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerPart, bearerToken, issueKey, keyPattern, keyPrefix, lookupIdOf } from './api-keys.ts';

/** lookupIdOf as the pattern reads it: the reference the hand-written reader must match. */
function byPattern(key: string): string | undefined {
  const m = keyPattern.exec(key);
  return m && m[1] === keyPrefix ? m[2] : undefined;
}

const alnum = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Keys near the form: prefixes and separators right and wrong, parts of about the right length, stray characters. */
const nearKey = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constant(keyPrefix), weight: 6 },
      { arbitrary: fc.constantFrom('abc', 'v', 'VTO', '', 'v_to', 'vtox', 'vt0', 'é'), weight: 4 },
    ),
    fc.oneof(
      { arbitrary: fc.constant('_live_'), weight: 6 },
      { arbitrary: fc.constantFrom('_live', '_test_', '_live__', 'live_', '_LIVE_'), weight: 4 },
    ),
    fc.oneof({ arbitrary: fc.constant(44), weight: 6 }, { arbitrary: fc.integer({ min: 40, max: 48 }), weight: 4 }),
    fc.infiniteStream(
      fc.oneof(
        { arbitrary: fc.constantFrom(...alnum), weight: 300 },
        { arbitrary: fc.constantFrom('_', ' ', '-', '\n', 'é', '\u00a0'), weight: 1 },
      ),
    ),
  )
  .map(([prefix, sep, length, chars]) => `${prefix}${sep}${[...chars.take(length)].join('')}`);

describe('API keys', () => {
  it('reads the lookup id of an issued key', () => {
    const issued = issueKey();
    expect(lookupIdOf(issued.key)).toBe(issued.lookupId);
    expect(byPattern(issued.key)).toBe(issued.lookupId);
  });

  it('reads a lookup id exactly where the key pattern does', () => {
    let wellFormed = 0;
    fc.assert(
      fc.property(nearKey, (key) => {
        expect(lookupIdOf(key)).toBe(byPattern(key));
        if (byPattern(key) !== undefined) wellFormed++;
      }),
      { numRuns: 3000 },
    );
    // Both sides of the border are tried.
    expect(wellFormed).toBeGreaterThan(300);
    expect(wellFormed).toBeLessThan(2700);
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (key) => {
        expect(lookupIdOf(key)).toBe(byPattern(key));
      }),
      { numRuns: 1000 },
    );
  });

  it('finds the same well-formed key in an Authorization header with bearerPart as with bearerToken', () => {
    const header = fc.oneof(
      fc.constant(undefined),
      fc
        .tuple(
          fc.constantFrom('Bearer ', 'bearer ', 'Bearer  ', 'Bearer', 'Basic ', ''),
          nearKey,
          fc.constantFrom('', ' ', '\t', 'x'),
        )
        .map(([a, k, z]) => `${a}${k}${z}`),
      fc.string({ maxLength: 70 }),
    );
    const wellFormed = (key: string | undefined) => (key ? lookupIdOf(key) : undefined);
    fc.assert(
      fc.property(header, (h) => {
        expect(wellFormed(bearerPart(h))).toBe(wellFormed(bearerToken(h)));
      }),
      { numRuns: 3000 },
    );
    const { key } = issueKey();
    expect(bearerPart(`Bearer ${key}`)).toBe(key);
  });
});
