import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertionSentence, propertyLines, shortPropertyReport } from './assertion-sentence.ts';

/** The message vitest gives for `assertion`. */
function messageOf(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the assertion held');
}

describe('assertionSentence: what was expected and what came, in words', () => {
  it.each<[string, () => void, string]>([
    [
      'a negated toBe',
      () => expect(429, 'request 13 of 12 in a fresh window: 429 RATE_LIMITED').not.toBe(429),
      'request 13 of 12 in a fresh window: 429 RATE_LIMITED: expected anything but 429, received 429',
    ],
    ['a toBe', () => expect(201, 'POST /tryons').toBe(200), 'POST /tryons: expected 200, received 201'],
    [
      'a toBe of a string',
      () => expect(undefined, 'code of the 429').toBe('RATE_LIMITED'),
      "code of the 429: expected 'RATE_LIMITED', received undefined",
    ],
    [
      'a negated toEqual',
      () => expect({ a: 1 }, 'retry after 503').not.toEqual({ a: 1 }),
      'retry after 503: expected anything but { a: 1 }, received { a: 1 }',
    ],
    [
      'a toContain over a list of allowed answers',
      () => expect(['400 INVALID_IMAGE_ID'], 'unknown ids').toContain('413 BODY_TOO_LARGE'),
      "unknown ids: '413 BODY_TOO_LARGE' is not among [ '400 INVALID_IMAGE_ID' ]",
    ],
    ['a toContain over text', () => expect('abc', 'the label').toContain('x'), "the label: 'x' is not in 'abc'"],
    [
      'a toMatch',
      () => expect('60s', 'Retry-After of the 13th start').toMatch(/^\d+$/),
      "Retry-After of the 13th start: expected text matching /^\\d+$/, received '60s'",
    ],
    [
      'a bound',
      () => expect(70, 'Retry-After').toBeLessThanOrEqual(65),
      'Retry-After: expected at most 65, received 70',
    ],
    ['another bound', () => expect(3, 'n').toBeGreaterThan(5), 'n: expected more than 5, received 3'],
    [
      'a boolean',
      () => expect(false, 'message on failed').toBe(true),
      'message on failed: expected true, received false',
    ],
    ['a state', () => expect(undefined, 'id').toBeDefined(), 'id: expected a value, received undefined'],
    ['null', () => expect(1, 'x').toBeNull(), 'x: expected null, received 1'],
    ['a length', () => expect([1], 'parts').toHaveLength(3), 'parts: expected a length of 3, received [ 1 ]'],
    [
      'a toSatisfy block with colours',
      () => expect(1, 'the window').toSatisfy((x: number) => x > 3),
      'the window: expected a value that satisfies the rule, received 1',
    ],
  ])('%s', (_name, assertion, sentence) => {
    const said = assertionSentence(messageOf(assertion));
    expect(said).toBe(sentence);
    expect(said).not.toMatch(/Object\.is|to not |not to |\u001b/);
  });

  it("drops vitest's note on a subset match", () => {
    expect(
      assertionSentence('refused differs: expected true, received false\n(2 matching properties omitted from actual)'),
    ).toBe('refused differs: expected true, received false');
  });

  it('keeps a line that is no matcher text as it was, and every line after the first', () => {
    expect(assertionSentence('the fixture host answered 503\nmore')).toBe('the fixture host answered 503\nmore');
    expect(assertionSentence('x: expected 1 to be 2 // Object.is equality\nCounterexample: [1]')).toBe(
      'x: expected 2, received 1\nCounterexample: [1]',
    );
  });
});

describe('shortPropertyReport: the counterexample, the shrink count and the replay line', () => {
  it("cuts fast-check's own report to them", async () => {
    const details = await fc.check(
      fc.property(fc.integer(), (n) => n < 5),
      { seed: 42 },
    );
    const report = fc.defaultReportMessage(details) ?? '';
    expect(report).toContain('endOnFailure');
    const short = shortPropertyReport(report);
    expect(short).toMatch(/^Counterexample: \[5\]( \(shrunk \d+ times?\))?\nReplay: --seed 42 --path [\d:]+$/);
    expect(short).not.toMatch(/Hint|endOnFailure|Property failed/);
  });

  it('cuts a report inside a longer message, keeping the words before it', () => {
    const text =
      '[ERR-X] status differs: expected 400, received 500\nProperty failed after 3 tests\n{ seed: 9, path: "2:0", endOnFailure: true }\nCounterexample: [{"raw":"["}]\nShrunk 2 time(s)\n\nHint: Enable verbose mode\nReplay: --seed 9 --path 2:0';
    expect(shortPropertyReport(text)).toBe(
      '[ERR-X] status differs: expected 400, received 500\nCounterexample: [{"raw":"["}] (shrunk 2 times)\nReplay: --seed 9 --path 2:0',
    );
  });

  it('leaves other text as it was', () => {
    expect(shortPropertyReport('403 CONSENT_REQUIRED')).toBe('403 CONSENT_REQUIRED');
  });

  it('writes the lines from parts', () => {
    expect(propertyLines({ counterexample: '[1]', shrunk: 1, seed: 7, path: '0:1' })).toBe(
      'Counterexample: [1] (shrunk 1 time)\nReplay: --seed 7 --path 0:1',
    );
    expect(propertyLines({ counterexample: '[1]', seed: 7 })).toBe('Counterexample: [1]\nReplay: --seed 7');
  });
});
