/**
 * The verdict rules on the points the common rows leave open: which errors count as a bare assertion,
 * a test whose errors mix checks and assertions, who is listed under a requirement, the order of its
 * failures, the reasons of an inconclusive or not-observable verdict, and observations kept once.
 */
import { describe, expect, it } from 'vitest';
import { requirement, type RequirementId } from '../contract/requirements.ts';
import { fakeInfo, fakeModule, fakeTest, type FakeTest } from './fake-run.ts';
import { buildReport, type ErrorLike, type RequirementResult, type TestState } from './model.ts';
import { outcomeOf, testOutcome } from './verdict.ts';

const A: RequirementId = 'CREATE-ACCEPTED-IS-200';
const B: RequirementId = 'CREATE-RESPONSE-STATUS-PENDING';
const T: RequirementId = 'RES-TRYON-ID-RETURNED-ON-CREATE'; // has a subsection ("Try-on")

const assertion: ErrorLike = { name: 'AssertionError', message: 'expected 201 to be 200' };
const checksFailed: ErrorLike = { message: '1 check(s) failed on the exchanges of this test:\n- [B] x' };
const findingOn = (
  id: RequirementId,
  o: { severity?: 'error' | 'warning'; message?: string; title?: string } = {},
) => ({
  check: 'envelope',
  requirement: id,
  title: o.title ?? 'Not the envelope',
  message: o.message ?? 'Received: {}\nDocumented: {error, code}',
  severity: o.severity ?? ('error' as const),
  exchange: 1,
});

/** A test as `outcomeOf` reads it. */
function ran(t: FakeTest) {
  const test = fakeTest(t);
  const result = test.result();
  const state: TestState = result.state === 'passed' || result.state === 'failed' ? result.state : 'skipped';
  return { entry: { requirements: [...t.requirements], state }, meta: test.meta(), errors: result.errors ?? [] };
}
const failedWith = (errors: ErrorLike[], requirements: RequirementId[] = [A]): FakeTest => ({
  name: 't',
  state: 'failed',
  requirements,
  errors,
});

/** The verdict of `id` in a report of `tests`. */
function judged(id: RequirementId, tests: FakeTest[]): RequirementResult {
  const report = buildReport([fakeModule('src/suite/x.suite.ts', tests.map(fakeTest))], fakeInfo, [
    requirement(id),
    requirement(A),
  ]);
  const r = report.requirements.find((q) => q.id === id);
  if (!r) throw new Error(`no verdict for ${id}`);
  return r;
}

describe('outcomeOf: what counts as a bare assertion', () => {
  it.each<[string, ErrorLike, 'fail' | 'inconclusive']>([
    ['an error with both an expected and a received value', { message: 'x', expected: '1', actual: '2' }, 'fail'],
    ['an error with an expected value alone', { message: 'x', expected: '1' }, 'inconclusive'],
    ['an error with a received value alone', { message: 'x', actual: '2' }, 'inconclusive'],
    ['"expected …" on a later line of the message', { message: 'Property failed\nexpected 1 to be 2' }, 'fail'],
    ['"AssertionError: expected …"', { message: 'AssertionError: expected 1 to be 2' }, 'fail'],
    ['"expected" inside a sentence', { message: 'the upload we expected failed' }, 'inconclusive'],
    ['a message that is not a string', { message: 5 as unknown as string }, 'inconclusive'],
    ['an assertion two causes deep', { message: 'a', cause: { message: 'b', cause: assertion } }, 'fail'],
    ['a broken rule over an assertion', { name: 'RuleBroken', message: 'x', cause: assertion }, 'inconclusive'],
    ['an inconclusive over an assertion', { name: 'Inconclusive', message: 'x', cause: assertion }, 'inconclusive'],
  ])('%s: %s', (_name, error, want) => {
    expect(outcomeOf(ran(failedWith([error])), A)).toBe(want);
  });

  it('does not follow causes past five levels (a cycle or a deep chain ends)', () => {
    let deep: ErrorLike = assertion;
    for (let i = 0; i < 5; i++) deep = { message: `wrap ${i}`, cause: deep };
    expect(outcomeOf(ran(failedWith([deep])), A)).toBe('inconclusive');
    const cycle: { message: string; cause?: unknown } = { message: 'loop' };
    cycle.cause = cycle;
    expect(outcomeOf(ran(failedWith([cycle as ErrorLike])), A)).toBe('inconclusive');
  });

  it('fails on a bare assertion next to failed checks, and next to an error of the run', () => {
    expect(outcomeOf(ran(failedWith([checksFailed, assertion])), A)).toBe('fail');
    expect(outcomeOf(ran(failedWith([{ message: 'socket hang up' }, assertion])), A)).toBe('fail');
    expect(outcomeOf(ran(failedWith([checksFailed])), A)).toBe('pass');
  });
});

describe('testOutcome', () => {
  it('says skip for a skipped test and pass for a passed one, naming no failure', () => {
    expect(testOutcome(ran({ name: 't', state: 'skipped', requirements: [A] }))).toEqual({
      outcome: 'skip',
      failed: [],
    });
    expect(testOutcome(ran({ name: 't', state: 'passed', requirements: [A] }))).toEqual({
      outcome: 'pass',
      failed: [],
    });
  });

  it('names a requirement failed by an error finding or a broken rule, even one the test does not cover', () => {
    const t: FakeTest = {
      name: 't',
      state: 'failed',
      requirements: [A],
      meta: { findings: [findingOn(B)], broken: [{ requirement: T, message: 'x' }] },
      errors: [checksFailed],
    };
    expect(testOutcome(ran(t))).toEqual({ outcome: 'fail', failed: [B, T] });
  });
});

describe('judge (through buildReport)', () => {
  it('lists the tests that cover a requirement and those that failed it, and no other', () => {
    const r = judged(B, [
      { name: 'covers', state: 'passed', requirements: [B] },
      { name: 'finds', state: 'failed', requirements: [A], meta: { findings: [findingOn(B)] }, errors: [checksFailed] },
      { name: 'elsewhere', state: 'passed', requirements: [A] },
    ]);
    expect(r.verdict).toBe('fail');
    expect(r.tests).toEqual(['covers', 'finds']);
  });

  it('gives the broken rules of a failing test first, then its findings, distinct ones apart', () => {
    const r = judged(A, [
      {
        name: 't',
        state: 'failed',
        requirements: [A],
        meta: {
          broken: [{ requirement: A, message: '[A] expected 201, received 200', expected: '200', actual: '201' }],
          findings: [findingOn(A, { title: 'one' }), findingOn(A, { title: 'two' }), findingOn(A, { title: 'one' })],
        },
        errors: [{ name: 'RuleBroken', message: '[A] x' }],
      },
    ]);
    expect(r.failures.map((f) => [f.message, f.occurrences ?? 1])).toEqual([
      ['[A] expected 201, received 200', 1],
      ['one', 2],
      ['two', 1],
    ]);
    expect(r.failures.every((f) => f.test === 't')).toBe(true);
  });

  it('keeps the counterexample of a failed property on its failure, and none when there is none', () => {
    const failing = (meta: NonNullable<FakeTest['meta']>): FakeTest => ({ ...failedWith([assertion]), meta });
    expect(judged(A, [failing({ counterexample: 'Counterexample: [1]' })]).failures[0]?.counterexample).toContain(
      'Counterexample: [1]',
    );
    expect(judged(A, [failing({})]).failures[0]).not.toHaveProperty('counterexample');
  });

  it('is not-observable, naming each test, when the tests that passed it sent nothing', () => {
    const quiet = (name: string): FakeTest => ({ name, state: 'passed', requirements: [A], meta: { evidence: [] } });
    const r = judged(A, [quiet('a'), quiet('b')]);
    expect(r.verdict).toBe('not-observable');
    expect(r.reason).toBe(
      '"a", "b" ran to its end without sending anything to the target, so nothing of the target was observed',
    );
  });

  it('is inconclusive with each distinct reason once, in order', () => {
    const stopped = (name: string, why: string): FakeTest => ({
      name,
      state: 'failed',
      requirements: [A],
      meta: { inconclusive: why },
      errors: [{ name: 'Inconclusive', message: why }],
    });
    const r = judged(A, [stopped('a', 'no second account'), stopped('b', 'clock'), stopped('c', 'no second account')]);
    expect(r.verdict).toBe('inconclusive');
    expect(r.reason).toBe('no second account; clock');
  });

  it('says which requirements stopped a test that judged this one not at all', () => {
    const r = judged(A, [
      {
        name: 't',
        state: 'failed',
        requirements: [A, B, T],
        meta: {
          broken: [
            { requirement: B, message: 'x' },
            { requirement: T, message: 'y' },
          ],
        },
        errors: [{ name: 'RuleBroken', message: 'x' }],
      },
    ]);
    expect([r.verdict, r.reason]).toEqual(['inconclusive', `the test stopped when ${B}, ${T} failed`]);
  });

  it('carries the catalogue subsection when there is one, and none otherwise', () => {
    expect(judged(T, []).subsection).toBe('Try-on');
    expect(judged('SVC-POLL-UNTIL-FINAL', [])).not.toHaveProperty('subsection');
  });

  it('keeps an observation once, and only the warnings on this requirement', () => {
    const note = { type: 'observed', message: 'Retry-After 47 s' };
    const r = judged(A, [
      {
        name: 'a',
        state: 'passed',
        requirements: [A],
        annotations: [note, note],
        meta: {
          findings: [
            findingOn(A, { severity: 'warning', title: 'Terse', message: 'x' }),
            findingOn(A, { severity: 'warning', title: 'Terse', message: 'x' }),
            findingOn(B, { severity: 'warning', title: 'Other' }),
          ],
        },
      },
    ]);
    expect(r.observations).toEqual([
      { test: 'a', type: 'observed', message: 'Retry-After 47 s' },
      { test: 'a', type: 'warning', message: 'Terse: x' },
    ]);
  });

  it('keeps all exchanges of a failing test when they fit, saying none were left out', () => {
    const evidence = [{ curl: 'curl 1', status: 200, body: '' }];
    const f = judged(A, [{ ...failedWith([assertion]), meta: { evidence } }]).failures[0];
    expect(f?.evidence).toEqual(evidence);
    expect(f).not.toHaveProperty('evidenceOmitted');
  });
});

describe('the verdict rules: what the test recorded outweighs how its error reads', () => {
  const named = { message: 'expected 201 to be 200', expected: '200', actual: '201' };

  it('leaves the rest inconclusive when a rule of another requirement broke, whatever the error looks like', () => {
    const t: FakeTest = { ...failedWith([named], [A, B]), meta: { broken: [{ requirement: B, message: 'x' }] } };
    expect([outcomeOf(ran(t), A), outcomeOf(ran(t), B)]).toEqual(['inconclusive', 'fail']);
  });

  it('leaves what it covers inconclusive when the test said so, whatever the error looks like', () => {
    const t: FakeTest = { ...failedWith([named]), meta: { inconclusive: 'no second account' } };
    expect(outcomeOf(ran(t), A)).toBe('inconclusive');
  });

  it('takes an AssertionError by its name alone, and a null cause as the end of the chain', () => {
    expect(outcomeOf(ran(failedWith([{ name: 'AssertionError', message: 'promise rejected' }])), A)).toBe('fail');
    const nullCause = { message: 'socket hang up', cause: null } as unknown as ErrorLike;
    expect(outcomeOf(ran(failedWith([nullCause])), A)).toBe('inconclusive');
  });
});

describe('judge: what a failure carries', () => {
  it('fails a requirement with its own error findings and broken rules only', () => {
    const r = judged(A, [
      {
        name: 't',
        state: 'failed',
        requirements: [A, B],
        meta: {
          broken: [
            { requirement: A, message: 'rule of A' },
            { requirement: B, message: 'rule of B' },
          ],
          findings: [
            findingOn(A, { title: 'error on A' }),
            findingOn(B, { title: 'error on B' }),
            findingOn(A, { severity: 'warning', title: 'warning on A' }),
          ],
        },
        errors: [{ name: 'RuleBroken', message: 'rule of A' }],
      },
    ]);
    expect(r.failures.map((f) => f.message)).toEqual(['rule of A', 'error on A']);
  });

  it('gives a passed requirement no reason, and marks only an implementation-defined one as such', () => {
    const passed = judged(A, [{ name: 't', state: 'passed', requirements: [A] }]);
    expect(passed.verdict).toBe('pass');
    expect(passed).not.toHaveProperty('reason');
    expect(passed).not.toHaveProperty('implementationDefined');
    expect(judged('ACCOUNT-RECORD-FIELDS-IMPL-DEFINED', []).implementationDefined).toBe(true);
  });
});
