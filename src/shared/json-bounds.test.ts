/** The runner's bounds on a target's JSON: any depth and any size are read without a throw. */
import { describe, expect, it } from 'vitest';
import { maxJsonBytes, maxJsonDepth, nestsDeeperThan, readJsonBody, showJson } from './json-bounds.ts';

/** An array nested `depth` levels, as text. */
const deepArrayText = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const deepObjectText = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('readJsonBody', () => {
  it('reads JSON within the bounds, and says a body that is not JSON is none', () => {
    expect(readJsonBody(Buffer.from('{"credits":20}'))).toEqual({ json: { credits: 20 } });
    expect(readJsonBody(Buffer.from(deepArrayText(maxJsonDepth)))).toHaveProperty('json');
    expect(readJsonBody(Buffer.from('<html>'))).toBeUndefined();
  });

  it.each([
    ['an array', deepArrayText(200_000)],
    ['an object (150,000 levels: 200,000 would be over the size bound)', deepObjectText(150_000)],
    ['one level past the bound', deepArrayText(maxJsonDepth + 1)],
  ])('does not read %s nested too deep, and says why', (_name, text) => {
    expect(readJsonBody(Buffer.from(text))).toEqual({
      unread: `the target answered a JSON body nested deeper than ${maxJsonDepth} levels`,
    });
  });

  it('does not parse a body over the size bound', () => {
    const big = Buffer.from(JSON.stringify({ pad: 'x'.repeat(maxJsonBytes) }));
    expect(readJsonBody(big)).toEqual({
      unread: `the target answered a body of ${big.length} bytes, over the ${maxJsonBytes} the runner reads as JSON`,
    });
  });
});

describe('nestsDeeperThan', () => {
  it('counts levels of arrays and objects, at any depth', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan({ a: [1] }, 2)).toBe(false);
    expect(nestsDeeperThan({ a: [[]] }, 2)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(deepArrayText(200_000)), 199_999)).toBe(true);
  });
});

describe('showJson', () => {
  it('shows a value cut at the bound, and a value too deep to show without a throw', () => {
    expect(showJson({ a: 1 })).toBe('{"a":1}');
    expect(showJson('x'.repeat(300), 10)).toBe(`"${'x'.repeat(9)}…`);
    expect(showJson(JSON.parse(deepArrayText(200_000)))).toBe(`(a value nested deeper than ${maxJsonDepth} levels)`);
    expect(showJson(10n)).toBe('10');
  });
});
