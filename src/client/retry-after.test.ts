/** Retry-After in both of RFC 9110's forms, and everything else ignored. */
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after.ts';

const now = Date.parse('2026-11-27T10:00:00Z');

describe('retryAfterMs', () => {
  it.each<[string, string | undefined, number | undefined]>([
    ['delay-seconds', '41', 41_000],
    ['zero seconds', '0', 0],
    ['an IMF-fixdate 30 s ahead', 'Fri, 27 Nov 2026 10:00:30 GMT', 30_000],
    ['an RFC 850 date 5 s ahead', 'Friday, 27-Nov-26 10:00:05 GMT', 5_000],
    ['an asctime date 2 s ahead', 'Fri Nov 27 10:00:02 2026', 2_000],
    ['a date that has passed', 'Fri, 27 Nov 2026 09:00:00 GMT', 0],
    ['absent', undefined, undefined],
    ['a fraction', '1.5', undefined],
    ['negative', '-3', undefined],
    ['words', 'in a minute', undefined],
    ['a date without GMT', 'Fri, 27 Nov 2026 10:00:30 +0100', undefined],
    ['over 64 characters', `Fri, 27 Nov 2026 10:00:30 GMT${' '.repeat(60)}`, undefined],
  ])('%s', (_what, value, want) => {
    expect(retryAfterMs(value, now)).toBe(want);
  });
});
