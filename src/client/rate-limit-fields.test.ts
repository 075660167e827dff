/** The draft's RateLimit fields as the client reads them: its own examples, and hostile or malformed values ignored. */
import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseRateLimitPolicy } from './rate-limit-fields.ts';

describe('RateLimit-Policy', () => {
  it.each([
    ['"default";q=100;w=10', [{ name: 'default', quota: 100, windowSeconds: 10, unit: 'requests' }]],
    [
      '"permin";q=50;w=60,"perhr";q=1000;w=3600',
      [
        { name: 'permin', quota: 50, windowSeconds: 60, unit: 'requests' },
        { name: 'perhr', quota: 1000, windowSeconds: 3600, unit: 'requests' },
      ],
    ],
    ['"peruser";q=100;w=60;pk=:cHsdsRa894==:', [{ name: 'peruser', quota: 100, windowSeconds: 60, unit: 'requests' }]],
    [
      '"peruser";q=65535;qu="content-bytes";w=10;pk=:sdfjLJUOUH==:',
      [{ name: 'peruser', quota: 65535, windowSeconds: 10, unit: 'content-bytes' }],
    ],
    ['"starts";q=12', [{ name: 'starts', quota: 12, unit: 'requests' }]],
    [
      '  "a";q=1;w=60 ,  "b";q=2;w=1;acme-burst=?1',
      [
        { name: 'a', quota: 1, windowSeconds: 60, unit: 'requests' },
        { name: 'b', quota: 2, windowSeconds: 1, unit: 'requests' },
      ],
    ],
  ])('reads the draft example %s', (field, want) => {
    expect(parseRateLimitPolicy(field)).toEqual(want);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['no quota', '"default";w=60'],
    ['a negative quota', '"default";q=-1;w=60'],
    ['a fractional quota', '"default";q=1.5;w=60'],
    ['a zero window', '"default";q=1;w=0'],
    ['a token, not a string, as the name', 'default;q=1;w=60'],
    ['an unterminated string', '"default;q=1'],
    ['a control character in the name', '"de\u001bfault";q=1'],
    ['a trailing comma', '"a";q=1,'],
    ['garbage after an item', '"a";q=1 x'],
    ['an inner list', '("a" "b");q=1'],
    ['a field over 2048 characters', `"a";q=1;w=60;x="${'y'.repeat(2048)}"`],
    ['more than 16 members', Array.from({ length: 17 }, (_, i) => `"p${i}";q=1`).join(',')],
    ['an integer of 16 digits', '"a";q=1234567890123456'],
  ])('ignores a field that is %s', (_what, field) => {
    expect(parseRateLimitPolicy(field)).toBeUndefined();
  });
});

describe('RateLimit', () => {
  it.each([
    ['"default";r=50;t=30', [{ name: 'default', remaining: 50, resetSeconds: 30 }]],
    ['"default";r=999;pk=:dHJpYWwxMjEzMjM=:', [{ name: 'default', remaining: 999 }]],
    ['"problemPolicy";r=0;t=10', [{ name: 'problemPolicy', remaining: 0, resetSeconds: 10 }]],
  ])('reads the draft example %s', (field, want) => {
    expect(parseRateLimit(field)).toEqual(want);
  });

  it.each([
    ['no remaining quota', '"default";t=30'],
    ['a negative reset', '"default";r=0;t=-5'],
    ['a string for r', '"default";r="0";t=5'],
  ])('ignores a field with %s', (_what, field) => {
    expect(parseRateLimit(field)).toBeUndefined();
  });
});
