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
