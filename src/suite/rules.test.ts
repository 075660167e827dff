import { describe, expect, it } from 'vitest';
import { must, RuleBroken } from './rules.ts';

function broken(assertion: () => void): RuleBroken {
  try {
    must('CREATE-ACCEPTED-IS-200', assertion);
  } catch (error) {
    if (error instanceof RuleBroken) return error;
    throw error;
  }
  throw new Error('the rule held');
}

describe('must: the first line of a broken rule names what differs', () => {
  const seen = { op: 'createTryOn', status: 201, keys: ['id', 'pollUrl', 'status'], contentType: 'application/json' };
  const want = { ...seen, status: 200 };

  it.each<[string, () => void, string]>([
    [
      'one field of an object',
      () => expect(seen).toEqual(want),
      '[CREATE-ACCEPTED-IS-200] status differs: expected 200, received 201 (where op "createTryOn", contentType "application/json")',
    ],
    [
      'several fields',
      () => expect({ ...seen, contentType: 'text/html' }).toEqual(want),
      '[CREATE-ACCEPTED-IS-200] 2 fields differ: status: expected 200, received 201; contentType: expected "application/json", received "text/html" (where op "createTryOn")',
    ],
    [
      'a subset match',
      () =>
        expect({ ...seen, extra: 1 }).toMatchObject({
          op: 'createTryOn',
          status: 200,
          keys: ['id', 'pollUrl', 'status'],
        }),
      '[CREATE-ACCEPTED-IS-200] status differs: expected 200, received 201 (where op "createTryOn")',
    ],
    [
      'with its own message in front',
      () => expect(seen, 'the create answer').toEqual(want),
      '[CREATE-ACCEPTED-IS-200] the create answer: status differs: expected 200, received 201 (where op "createTryOn", contentType "application/json")',
    ],
    ['a scalar, in words', () => expect(201).toBe(200), '[CREATE-ACCEPTED-IS-200] expected 200, received 201'],
    [
      'a negated scalar',
      () => expect(429, 'POST /tryons, start 3 of 12: 429 RATE_LIMITED').not.toBe(429),
      '[CREATE-ACCEPTED-IS-200] POST /tryons, start 3 of 12: 429 RATE_LIMITED: expected anything but 429, received 429',
    ],
    [
      'an asymmetric matcher',
      () => expect({ resultUrl: 'x' }, 'GET /tryons/t_1').toEqual({ resultUrl: expect.stringMatching(/^https:/) }),
      "[CREATE-ACCEPTED-IS-200] GET /tryons/t_1: expected { resultUrl: StringMatching /^https:/ }, received { resultUrl: 'x' }",
    ],
  ])('%s', (_name, assertion, first) => {
    const e = broken(assertion);
    expect(e.message.split('\n')[0]).toBe(first);
    expect(e.requirement).toBe('CREATE-ACCEPTED-IS-200');
  });

  it('says what a negated assertion expected, and shows a matcher as it reads', () => {
    const not = broken(() => expect(429).not.toBe(429));
    expect([not.expected, not.actual]).toEqual(['anything but 429', '429']);
    const matcher = broken(() => expect({ resultUrl: 'x' }).toEqual({ resultUrl: expect.stringMatching(/^https:/) }));
    expect(JSON.parse(matcher.expected ?? '')).toEqual({ resultUrl: 'StringMatching /^https:/' });
  });

  it('keeps the whole values for the report', () => {
    const e = broken(() => expect(seen).toEqual(want));
    expect(JSON.parse(e.expected ?? '')).toEqual(want);
    expect(JSON.parse(e.actual ?? '')).toEqual(seen);
  });
});
