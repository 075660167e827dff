/**
 * The rules' contract with the verdict (src/report/verdict.ts reads errors by name): a broken rule and an
 * inconclusive test keep their names, a rule inside a rule keeps the inner requirement, a precondition of
 * our own stays inconclusive, and an error without both values is told as it came.
 */
import { describe, expect, it } from 'vitest';
import { Inconclusive, must, precondition, RuleBroken } from './rules.ts';

/** What `must` throws for `assertion` (fails the test if it throws nothing). */
function thrownBy(assertion: () => void): unknown {
  try {
    must('CREATE-ACCEPTED-IS-200', assertion);
  } catch (error) {
    return error;
  }
  throw new Error('the rule held');
}

describe('RuleBroken and Inconclusive', () => {
  it('carry the names the verdict reads them by, also once serialised', () => {
    const broken = new RuleBroken('CREATE-ACCEPTED-IS-200', 'x');
    const inconclusive = new Inconclusive('y');
    expect([broken.name, inconclusive.name]).toEqual(['RuleBroken', 'Inconclusive']);
    expect(String(broken)).toBe('RuleBroken: x');
  });
});

describe('must', () => {
  it('lets a rule that holds pass without a trace', () => {
    expect(() => must('CREATE-ACCEPTED-IS-200', () => expect(200).toBe(200))).not.toThrow();
  });

  it('keeps the inner requirement of a rule broken inside another rule', () => {
    const inner = new RuleBroken('ERR-ENVELOPE-SHAPE', '[ERR-ENVELOPE-SHAPE] no envelope');
    expect(
      thrownBy(() => {
        throw inner;
      }),
    ).toBe(inner);
  });

  it('leaves a precondition of our own inconclusive, never a broken rule', () => {
    const e = thrownBy(() => precondition(false, 'no second account'));
    expect(e).toBeInstanceOf(Inconclusive);
    expect((e as Error).message).toBe('no second account');
  });

  it('tells an error that carries no values as it came, with no expected or received', () => {
    const cause = new Error('socket hang up');
    const e = thrownBy(() => {
      throw cause;
    }) as RuleBroken;
    expect(e).toBeInstanceOf(RuleBroken);
    expect([e.message, e.expected, e.actual, e.cause]).toEqual([
      '[CREATE-ACCEPTED-IS-200] socket hang up',
      undefined,
      undefined,
      cause,
    ]);
  });

  it('keeps a string value as it is, and tells an error with only one value as it came', () => {
    const e = thrownBy(() => {
      throw Object.assign(new Error('expected a pollUrl'), { expected: '/api/v1/tryons/t_1' });
    }) as RuleBroken;
    expect([e.message, e.expected, e.actual]).toEqual([
      '[CREATE-ACCEPTED-IS-200] expected a pollUrl',
      '/api/v1/tryons/t_1',
      undefined,
    ]);
  });

  it('tells a thrown non-error by its text', () => {
    const e = thrownBy(() => {
      throw 'plain text';
    }) as RuleBroken;
    expect(e.message).toBe('[CREATE-ACCEPTED-IS-200] plain text');
  });
});

describe('precondition', () => {
  it('passes when the condition holds, and is inconclusive with the reason when it does not', () => {
    expect(() => precondition(1, 'unused')).not.toThrow();
    expect(() => precondition(undefined, 'the target has no test control')).toThrow(
      new Inconclusive('the target has no test control'),
    );
  });
});

/** The broken rule `must` makes of `assertion` (fails the test if it holds or throws anything else). */
function brokenBy(assertion: () => void): RuleBroken {
  const e = thrownBy(assertion);
  if (e instanceof RuleBroken) return e;
  throw new Error(`expected a broken rule, received ${String(e)}`);
}

describe('must: the sentence a broken rule reads as', () => {
  const body = { id: 't_1', status: 'done', createdAt: '2026-01-01T00:00:00Z', resultUrl: 'https://cdn/x.png' };

  it('says where by the scalar fields that held (null and booleans too), four at most', () => {
    const seen = { op: 'getTryOn', status: 200, body, resultUrl: null, fresh: true, code: undefined };
    const one = brokenBy(() => expect(seen).toEqual({ ...seen, body: { ...body, status: 'succeeded' } }));
    expect(one.message).toBe(
      '[CREATE-ACCEPTED-IS-200] body.status differs: expected "succeeded", received "done" ' +
        '(where op "getTryOn", status 200, resultUrl null, fresh true)',
    );
    const many = { a: 1, b: 'x', c: true, d: null, e: 2, f: 3, body };
    const five = brokenBy(() => expect(many).toEqual({ ...many, body: { ...body, id: 't_2' } }));
    expect(five.message).toBe(
      '[CREATE-ACCEPTED-IS-200] body.id differs: expected "t_2", received "t_1" (where a 1, b "x", c true, d null)',
    );
  });

  it('adds no "where" when no scalar field held, nor for an array, nor to a message that shows the values', () => {
    const nested = { body, headers: { 'content-type': 'image/png' } };
    const inBody = brokenBy(() => expect(nested).toEqual({ ...nested, body: { ...body, status: 'failed' } }));
    expect(inBody.message).toBe('[CREATE-ACCEPTED-IS-200] body.status differs: expected "failed", received "done"');
    const list = Array.from({ length: 15 }, (_, i) => i + 1);
    const inList = brokenBy(() => expect(list).toEqual([...list.slice(0, 14), 16]));
    expect(inList.message).toBe('[CREATE-ACCEPTED-IS-200] [14] differs: expected 16, received 15');
    const small = brokenBy(() => expect({ status: 201, code: 'X' }).toEqual({ status: 200, code: 'X' }));
    expect(small.message).toBe(
      "[CREATE-ACCEPTED-IS-200] expected { status: 200, code: 'X' }, received { status: 201, code: 'X' }",
    );
  });

  it('adds no "where" to values that came as JSON text rather than as objects', () => {
    const e = brokenBy(() => {
      throw Object.assign(new Error(`expected { status: 201, …(3) } to deeply equal { status: 200, …(3) }`), {
        expected: '{"status":200,"op":"createTryOn"}',
        actual: '{"status":201,"op":"createTryOn"}',
      });
    });
    expect(e.message).toBe('[CREATE-ACCEPTED-IS-200] status differs: expected 200, received 201');
  });

  it('shows each asymmetric matcher as it reads, a negated one once', () => {
    const even = { asymmetricMatch: (v: unknown) => v === 2, toString: () => 'Even' };
    const e = brokenBy(() =>
      expect({ id: 1, name: 'x', tag: 't_x', n: 3, at: undefined }).toEqual({
        id: expect.any(String),
        name: expect.stringContaining('t_'),
        tag: expect.not.stringContaining('t_'),
        n: even,
        at: expect.anything(),
      }),
    );
    expect(JSON.parse(e.expected ?? '')).toEqual({
      id: 'Any<String>',
      name: 'StringContaining "t_"',
      tag: 'StringNotContaining "t_"',
      n: 'Even',
      at: 'Anything',
    });
  });

  it('says what a negated assertion expected, also behind its own words, and nothing when it named no value', () => {
    const worded = brokenBy(() => expect(429, 'POST /tryons, start 3 of 12').not.toBe(429));
    expect([worded.expected, worded.actual]).toEqual(['anything but 429', '429']);
    const among = brokenBy(() => expect(['t_1']).not.toContain('t_1'));
    expect(among.expected).toBeUndefined();
    const long = 'x'.repeat(250);
    const same = brokenBy(() => expect(long).not.toBe(long));
    expect(same.message).toMatch(/^\[CREATE-ACCEPTED-IS-200\] expected anything but 'x+…', received 'x+…'$/);
    expect(same.expected).toBe(`anything but ${long}`);
  });

  it('reads a negation only in the assertion, not in a later line of a value the target chose', () => {
    const e = brokenBy(() => expect('failed\nexpected it not to fail ').toBe('succeeded'));
    expect([e.expected, e.actual]).toEqual(['succeeded', 'failed\nexpected it not to fail ']);
  });

  it("reads a target's quoted text as a value, never as the matcher's words", () => {
    const told = { message: 'expected id not to be empty' };
    const e = brokenBy(() => expect(told).toEqual({ message: 'x' }));
    expect(e.message).toBe(
      '[CREATE-ACCEPTED-IS-200] message differs: expected "x", received "expected id not to be empty"',
    );
    expect(e.expected).toBe('{\n  "message": "x"\n}');
    const said = brokenBy(() => expect('it is not to be trusted').toBe('ok'));
    expect([said.message, said.expected]).toEqual([
      "[CREATE-ACCEPTED-IS-200] expected 'ok', received 'it is not to be trusted'",
      'ok',
    ]);
  });

  it('keeps the lines after the first as they came', () => {
    const e = brokenBy(() => {
      throw new Error('expected a pollUrl\nGET /api/v1/tryons/t_1 answered 202');
    });
    expect(e.message).toBe('[CREATE-ACCEPTED-IS-200] expected a pollUrl\nGET /api/v1/tryons/t_1 answered 202');
  });
});
