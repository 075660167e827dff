import { describe, expect, it } from 'vitest';
import { describeDiff, diffValues, isSubsetMatch } from './value-diff.ts';

const json = (v: unknown): string => JSON.stringify(v, null, 2);

describe('diffValues: only the fields that differ', () => {
  const rows: Array<
    [string, { expected: string; received: string; subset?: boolean; want: ReturnType<typeof diffValues> }]
  > = [
    [
      'one top-level field',
      {
        expected: json({ op: 'createTryOn', status: 200, keys: ['id'] }),
        received: json({ op: 'createTryOn', status: 201, keys: ['id'] }),
        want: { fields: ['status'], expected: 'status: 200', received: 'status: 201' },
      },
    ],
    [
      'nested fields and array items, as paths',
      {
        expected: json({ body: { status: 'pending', code: 'X' }, keys: ['id', 'pollUrl'] }),
        received: json({ body: { status: 'queued', code: 'X' }, keys: ['id', 'poll_url'] }),
        want: {
          fields: ['body.status', 'keys[1]'],
          expected: 'body.status: "pending"\nkeys[1]: "pollUrl"',
          received: 'body.status: "queued"\nkeys[1]: "poll_url"',
        },
      },
    ],
    [
      'a field missing on one side',
      {
        expected: json({ a: 1, b: 2 }),
        received: json({ a: 1 }),
        want: { fields: ['b'], expected: 'b: 2', received: 'b: (absent)' },
      },
    ],
    [
      'an extra received field is a difference for equality',
      {
        expected: json({ a: 1 }),
        received: json({ a: 1, c: 3 }),
        want: { fields: ['c'], expected: 'c: (absent)', received: 'c: 3' },
      },
    ],
    [
      'but not for a subset match (toMatchObject)',
      {
        expected: json({ a: 1 }),
        received: json({ a: 2, c: 3 }),
        subset: true,
        want: { fields: ['a'], expected: 'a: 1', received: 'a: 2' },
      },
    ],
    [
      'arrays of other lengths compare whole',
      {
        expected: json({ ids: [1, 2] }),
        received: json({ ids: [1] }),
        want: { fields: ['ids'], expected: 'ids: [1,2]', received: 'ids: [1]' },
      },
    ],
    [
      'nothing when they are equal',
      { expected: json({ a: [1, { b: 2 }] }), received: json({ a: [1, { b: 2 }] }), want: undefined },
    ],
    [
      'nothing for text that is not JSON (vitest’s own serialisation)',
      { expected: 'Object {\n  "a": 1,\n}', received: 'Object {\n  "a": 2,\n}', want: undefined },
    ],
    ['nothing for scalars, which read well as they are', { expected: '200', received: '201', want: undefined }],
  ];

  it.each(rows)('%s', (_name, { expected, received, subset, want }) => {
    expect(diffValues(expected, received, { subset: subset === true })).toEqual(want);
  });
});

describe('describeDiff: the message names the differing fields instead of …(n)', () => {
  const one = { fields: ['status'], expected: 'status: 200', received: 'status: 201' };
  const two = {
    fields: ['status', 'body.code'],
    expected: 'status: 401\nbody.code: "INVALID_API_KEY"',
    received: 'status: 404\nbody.code: "NOT_FOUND"',
  };
  const rows: Array<[string, { message: string; diff: typeof one; want: string }]> = [
    [
      'one field: both values inline',
      {
        message: "expected { op: 'createTryOn', …(3) } to deeply equal { op: 'createTryOn', …(3) }",
        diff: one,
        want: 'status differs: expected 200, received 201',
      },
    ],
    [
      'several fields: each path with both values',
      {
        message: "expected { op: 'x', …(2) } to match object { op: 'x', …(2) }",
        diff: two,
        want: '2 fields differ: status: expected 401, received 404; body.code: expected "INVALID_API_KEY", received "NOT_FOUND"',
      },
    ],
    [
      "chai's abbreviation outside vitest",
      {
        message: 'expected { Object (op, status, ...) } to deeply equal { Object (op, status, ...) }',
        diff: one,
        want: 'status differs: expected 200, received 201',
      },
    ],
    [
      'a custom message and the lines after the first stay',
      {
        message: "the create answer: expected { op: 'x', …(3) } to deeply equal { op: 'x', …(3) }\nCounterexample: [1]",
        diff: one,
        want: 'the create answer: status differs: expected 200, received 201\nCounterexample: [1]',
      },
    ],
    [
      'a message that hides nothing stays as it is',
      { message: 'expected 201 to be 200', diff: one, want: 'expected 201 to be 200' },
    ],
  ];

  it.each(rows)('%s', (_name, { message, diff, want }) => {
    expect(describeDiff(message, diff)).toBe(want);
  });

  it('cuts long values, and names the fields past about 300 characters', () => {
    const fields = Array.from({ length: 8 }, (_, i) => `field${i}`);
    const diff = {
      fields,
      expected: fields.map((f) => `${f}: "${'e'.repeat(70)}"`).join('\n'),
      received: fields.map((f) => `${f}: "${'r'.repeat(70)}"`).join('\n'),
    };
    const line = describeDiff("expected { a: 'x', …(8) } to deeply equal { a: 'y', …(8) }", diff);
    expect(line).toMatch(/^8 fields differ: field0: expected "e{59}…, received "r{59}…; /);
    expect(line).toMatch(/; and field\d(, field\d)*$/);
    expect(line.length).toBeLessThan(400);
  });

  it('tells a subset match from equality', () => {
    expect(isSubsetMatch('expected { a: 1 } to match object { a: 2 }')).toBe(true);
    expect(isSubsetMatch('expected { a: 1 } to deeply equal { a: 2 }')).toBe(false);
  });
});

describe('diffValues: JSON of any depth and size', () => {
  const deepText = (depth: number, leaf: string): string => '['.repeat(depth) + leaf + ']'.repeat(depth);

  it('compares values nested 200,000 levels deep without a throw, as not compared below the bound', () => {
    const diff = diffValues(deepText(200_000, '1'), deepText(200_000, '2'));
    const path = '[0]'.repeat(64);
    expect(diff).toEqual({
      fields: [path],
      expected: `${path}: (not compared: nested deeper than 64 levels)`,
      received: `${path}: (not compared: nested deeper than 64 levels)`,
    });
  });

  it('shows a difference just under the bound, and a value that is too deep against one that is not', () => {
    expect(diffValues(json({ a: deepText(3, '1') }), json({ a: deepText(3, '2') }))?.fields).toEqual(['a']);
    expect(diffValues(deepText(70, '1'), deepText(65, '1'))?.expected).toBe(`${'[0]'.repeat(64)}: [[[[[[1]]]]]]`);
  });

  it('lists at most 100 differing fields, each value cut at 1,000 characters', () => {
    const many = (v: string): string => json(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`f${i}`, v])));
    const diff = diffValues(many('x'.repeat(5_000)), many('y'));
    expect(diff?.fields).toHaveLength(101);
    expect(diff?.fields[100]).toBe('(more)');
    expect(diff?.expected.length).toBeLessThan(101 * 1_020);
  });
});
