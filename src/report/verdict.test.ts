/**
 * The oracle's verdict rules: per requirement, not per test; only a MUST the spec's own words make
 * decides the outcome; a problem of the run's own is never a failure.
 */
import { describe, expect, it } from 'vitest';
import { requirement, type RequirementId } from '../contract/requirements.ts';
import { fakeInfo, fakeModule, fakeTest, type FakeTest } from './fake-run.ts';
import { buildReport, type ErrorLike, type Report, type TestState, type Verdict } from './model.ts';
import type { TestOutcome } from './types.ts';
import { outcomeOf, testOutcome } from './verdict.ts';

const A: RequirementId = 'CREATE-ACCEPTED-IS-200';
const B: RequirementId = 'CREATE-RESPONSE-STATUS-PENDING';
const C: RequirementId = 'ERR-ENVELOPE-SHAPE';

const assertion: ErrorLike = {
  name: 'AssertionError',
  message: 'expected 200, received 201',
  expected: '200',
  actual: '201',
};
const brokenA = { requirement: A, message: 'expected 200, received 201', expected: '200', actual: '201' } as const;
const findingOn = (id: RequirementId, severity: 'error' | 'warning' = 'error') => ({
  check: 'envelope',
  requirement: id,
  title: 'Not the envelope',
  message: 'Received: {}\nDocumented: {error, code}',
  severity,
  exchange: 1,
});
const checksFailed: ErrorLike = {
  message: '1 check(s) failed on the exchanges of this test:\n- [ERR-ENVELOPE-SHAPE] Not the envelope',
};

/** A test as `outcomeOf` reads it, from the same fake tests the report's tests use. */
function ran(t: FakeTest) {
  const test = fakeTest(t);
  const result = test.result();
  const state: TestState = result.state === 'passed' || result.state === 'failed' ? result.state : 'skipped';
  return { entry: { requirements: [...t.requirements], state }, meta: test.meta(), errors: result.errors ?? [] };
}

describe('outcomeOf: what one test says of one requirement', () => {
  const rows: Array<[string, { test: FakeTest; want: Partial<Record<RequirementId, TestOutcome | undefined>> }]> = [
    [
      'a passed test passes every requirement it covers',
      {
        test: { name: 't', state: 'passed', requirements: [A, B] },
        want: { [A]: 'pass', [B]: 'pass', [C]: undefined },
      },
    ],
    [
      'a broken rule (t.must) fails only its requirement; the test stopped, so the others are inconclusive',
      {
        test: {
          name: 't',
          state: 'failed',
          requirements: [A, B],
          meta: { broken: [brokenA] },
          errors: [{ name: 'RuleBroken', message: `[${A}] expected 201 to be 200` }],
        },
        want: { [A]: 'fail', [B]: 'inconclusive' },
      },
    ],
    [
      'an error finding fails the requirement it names; the test’s own assertions all held, so its covered requirements pass',
      {
        test: {
          name: 't',
          state: 'failed',
          requirements: [A, B],
          meta: { findings: [findingOn(C)] },
          errors: [checksFailed],
        },
        want: { [A]: 'pass', [B]: 'pass', [C]: 'fail' },
      },
    ],
    [
      'an error finding on a covered requirement fails it and leaves the other covered one passing',
      {
        test: {
          name: 't',
          state: 'failed',
          requirements: [A, C],
          meta: { findings: [findingOn(C)] },
          errors: [checksFailed],
        },
        want: { [A]: 'pass', [C]: 'fail' },
      },
    ],
    [
      'a warning finding fails nothing',
      {
        test: { name: 't', state: 'passed', requirements: [A], meta: { findings: [findingOn(C, 'warning')] } },
        want: { [A]: 'pass', [C]: undefined },
      },
    ],
    [
      'an inconclusive test (t.inconclusive, a precondition of the run’s own) fails nothing',
      {
        test: {
          name: 't',
          state: 'failed',
          requirements: [A, B],
          meta: { inconclusive: 'the upload we need answered 500' },
          errors: [{ name: 'Inconclusive', message: 'inconclusive: the upload we need answered 500' }],
        },
        want: { [A]: 'inconclusive', [B]: 'inconclusive' },
      },
    ],
    [
      'a bare assertion (not tied to a requirement) fails every covered requirement',
      {
        test: { name: 't', state: 'failed', requirements: [A, B], errors: [assertion] },
        want: { [A]: 'fail', [B]: 'fail' },
      },
    ],
    [
      'a bare assertion inside a failed property (the assertion as the cause) fails every covered requirement',
      {
        test: {
          name: 't',
          state: 'failed',
          requirements: [A, B],
          errors: [{ message: 'Property failed after 2 tests\nReplay: --seed 1 --path 0', cause: assertion }],
        },
        want: { [A]: 'fail', [B]: 'fail' },
      },
    ],
    [
      'our timeout is inconclusive, never a failure',
      {
        test: {
          name: 't',
          state: 'failed',
          requirements: [A, B],
          errors: [
            {
              message:
                'Test timed out in 120000ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".',
            },
          ],
        },
        want: { [A]: 'inconclusive', [B]: 'inconclusive' },
      },
    ],
    [
      'an error that is not an assertion (a network error of the run) is inconclusive',
      {
        test: {
          name: 't',
          state: 'failed',
          requirements: [A],
          errors: [{ name: 'SocketError', message: 'other side closed' }],
        },
        want: { [A]: 'inconclusive' },
      },
    ],
    [
      'a skipped test skips what it covers',
      {
        test: { name: 't', state: 'skipped', requirements: [A], meta: { skipReason: 'needs test-control: no' } },
        want: { [A]: 'skip' },
      },
    ],
    [
      'an error finding fails its requirement even from a skipped test',
      {
        test: {
          name: 't',
          state: 'skipped',
          requirements: [A],
          meta: { skipReason: 'out of budget', findings: [findingOn(C)] },
        },
        want: { [A]: 'skip', [C]: 'fail' },
      },
    ],
  ];

  it.each(rows)('%s', (_name, { test, want }) => {
    const r = ran(test);
    for (const [id, outcome] of Object.entries(want)) expect(outcomeOf(r, id), id).toBe(outcome);
  });

  it('judges the test as a whole for the progress line: fail names the failed requirements; a failure of none is inconclusive', () => {
    expect(testOutcome(ran({ name: 't', state: 'failed', requirements: [A, B], meta: { broken: [brokenA] } }))).toEqual(
      { outcome: 'fail', failed: [A] },
    );
    expect(
      testOutcome(
        ran({ name: 't', state: 'failed', requirements: [A], errors: [{ message: 'Test timed out in 120000ms.' }] }),
      ),
    ).toEqual({ outcome: 'inconclusive', failed: [] });
    expect(
      testOutcome(ran({ name: 't', state: 'failed', requirements: [], errors: [{ message: 'boom' }] })).outcome,
    ).toBe('fail');
  });
});

/** The report of one run of `tests`, judged against `ids`. */
function report(tests: readonly FakeTest[], ids: readonly RequirementId[] = [A, B, C]): Report {
  return buildReport([fakeModule('src/suite/x.suite.ts', tests.map(fakeTest))], fakeInfo, ids.map(requirement));
}

const verdictOf = (r: Report, id: RequirementId): Verdict | undefined =>
  r.requirements.find((q) => q.id === id)?.verdict;

describe('judge: a requirement across the tests of a run', () => {
  const passes = (name: string, ids: RequirementId[]): FakeTest => ({ name, state: 'passed', requirements: ids });
  const breaksA = (name: string): FakeTest => ({
    name,
    state: 'failed',
    requirements: [A, B],
    meta: { broken: [brokenA] },
  });
  const stops = (name: string, ids: RequirementId[]): FakeTest => ({
    name,
    state: 'failed',
    requirements: ids,
    meta: { inconclusive: 'no fixture host' },
  });

  const rows: Array<[string, { tests: FakeTest[]; want: Partial<Record<RequirementId, Verdict>> }]> = [
    [
      'pass beats inconclusive: one test stopped, another covering test passed',
      { tests: [stops('a', [B]), passes('b', [B])], want: { [B]: 'pass' } },
    ],
    [
      'fail beats pass: one covering test passed, another broke the rule',
      { tests: [passes('a', [A]), breaksA('b')], want: { [A]: 'fail', [B]: 'inconclusive' } },
    ],
    [
      'inconclusive when every covering test stopped before judging it',
      { tests: [breaksA('a'), stops('b', [B])], want: { [A]: 'fail', [B]: 'inconclusive' } },
    ],
    [
      'inconclusive beats skip: a skipped test and a stopped one leave it inconclusive',
      {
        tests: [{ name: 'a', state: 'skipped', requirements: [B], meta: { skipReason: 'needs x' } }, stops('b', [B])],
        want: { [B]: 'inconclusive' },
      },
    ],
    [
      'not observable, never pass, when the passing test sent nothing',
      {
        tests: [{ name: 'a', state: 'passed', requirements: [A], meta: { evidence: [] } }],
        want: { [A]: 'not-observable' },
      },
    ],
    [
      'pass when one passing test sent something, though another sent nothing',
      {
        tests: [{ name: 'a', state: 'passed', requirements: [A], meta: { evidence: [] } }, passes('b', [A])],
        want: { [A]: 'pass' },
      },
    ],
    [
      'fail beats a test that sent nothing',
      {
        tests: [{ name: 'a', state: 'passed', requirements: [A, B], meta: { evidence: [] } }, breaksA('b')],
        want: { [A]: 'fail', [B]: 'not-observable' },
      },
    ],
  ];

  it.each(rows)('%s', (_name, { tests, want }) => {
    const r = report(tests);
    for (const [id, verdict] of Object.entries(want)) expect(verdictOf(r, id as RequirementId), id).toBe(verdict);
  });

  it('says why a requirement whose passing test sent nothing is not observable', () => {
    const r = report([
      { name: 'checks the key it was given', state: 'passed', requirements: [A], meta: { evidence: [] } },
    ]);
    expect(r.requirements.find((q) => q.id === A)).toMatchObject({
      verdict: 'not-observable',
      reason:
        '"checks the key it was given" ran to its end without sending anything to the target, so nothing of the target was observed',
      failures: [],
    });
    expect(r.summary.outcome).not.toBe('fail');
  });

  it('gives no pass for a passing test the target answered nothing (a target that went away mid-run)', () => {
    const noAnswer = { curl: 'curl http://127.0.0.1:1/api/v1/images', status: null, body: 'ECONNREFUSED' };
    const r = report([
      { name: 'uploads a burst', state: 'passed', requirements: [A], meta: { evidence: [noAnswer], answered: 0 } },
      { name: 'reads it', state: 'passed', requirements: [B], meta: { evidence: [noAnswer], answered: 3 } },
    ]);
    expect(r.requirements.find((q) => q.id === A)).toMatchObject({
      verdict: 'not-observable',
      reason:
        '"uploads a burst" ran to its end without an answer from the target to any of its requests, so nothing of the target was observed',
    });
    expect(verdictOf(r, B)).toBe('pass');
  });

  it('says why a requirement is inconclusive, and gives it no failure', () => {
    const r = report([breaksA('a'), stops('b', [C])]);
    const b = r.requirements.find((q) => q.id === B);
    expect(b).toMatchObject({ verdict: 'inconclusive', reason: `the test stopped when ${A} failed`, failures: [] });
    expect(r.requirements.find((q) => q.id === C)).toMatchObject({
      verdict: 'inconclusive',
      reason: 'no fixture host',
    });
    expect(r.requirements.find((q) => q.id === A)?.failures).toMatchObject([
      { test: 'a', message: 'expected 200, received 201', expected: '200', received: '201' },
    ]);
  });
});

describe('summary.outcome: only a MUST that the spec’s own words make decides it', () => {
  const rows: Array<
    [string, { ids: RequirementId[]; tests: FakeTest[]; errors?: number; want: Report['summary']['outcome'] }]
  > = [
    [
      'a failed MUST fails the outcome',
      { ids: [A], tests: [{ name: 'a', state: 'failed', requirements: [A], errors: [assertion] }], want: 'fail' },
    ],
    [
      'a failed SHOULD never does',
      {
        ids: ['SVC-MOST-RESULTS-UNDER-30-SECONDS'],
        tests: [
          { name: 'a', state: 'failed', requirements: ['SVC-MOST-RESULTS-UNDER-30-SECONDS'], errors: [assertion] },
        ],
        want: 'pass',
      },
    ],
    [
      'a failed MAY never does',
      {
        ids: ['CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED'],
        tests: [
          {
            name: 'a',
            state: 'failed',
            requirements: ['CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED'],
            errors: [assertion],
          },
        ],
        want: 'pass',
      },
    ],
    [
      'an inconclusive MUST never does',
      {
        ids: [A, B],
        tests: [
          { name: 'a', state: 'failed', requirements: [A], meta: { inconclusive: 'no fixture host' } },
          { name: 'b', state: 'passed', requirements: [B] },
        ],
        want: 'pass',
      },
    ],
    [
      'a timed-out MUST never does',
      {
        ids: [A, B],
        tests: [
          { name: 'a', state: 'failed', requirements: [A], errors: [{ message: 'Test timed out in 120000ms.' }] },
          { name: 'b', state: 'passed', requirements: [B] },
        ],
        want: 'pass',
      },
    ],
    [
      'a run that judged nothing (every test inconclusive) is an error of the run, not a pass',
      {
        ids: [A, B],
        tests: [
          {
            name: 'a',
            state: 'failed',
            requirements: [A, B],
            meta: { inconclusive: 'test control refused the account' },
          },
        ],
        want: 'error',
      },
    ],
    [
      'a failed test without requirements fails it',
      {
        ids: [A],
        tests: [{ name: 'a', state: 'failed', requirements: [], errors: [{ message: 'boom' }] }],
        want: 'fail',
      },
    ],
  ];

  it.each(rows)('%s', (_name, { ids, tests, want }) => {
    expect(report(tests, ids).summary.outcome).toBe(want);
  });

  it('a failed MUST marked implementation-defined never does (the catalogue has none today; the rule holds for one)', () => {
    const openMust = { ...requirement(A), implementationDefined: true as const };
    expect(openMust.level).toBe('MUST');
    const r = buildReport(
      [fakeModule('f', [fakeTest({ name: 'a', state: 'failed', requirements: [A], errors: [assertion] })])],
      fakeInfo,
      [openMust],
    );
    expect(verdictOf(r, A)).toBe('fail');
    expect(r.summary.outcome).toBe('pass');
  });

  it('errors of the run itself make the outcome error, whatever the verdicts', () => {
    const r = buildReport(
      [
        fakeModule('src/suite/x.suite.ts', [
          fakeTest({ name: 'a', state: 'failed', requirements: [A], errors: [assertion] }),
        ]),
        fakeModule('src/suite/y.suite.ts', [], [{ message: 'SyntaxError' }]),
      ],
      fakeInfo,
      [requirement(A)],
    );
    expect(r.summary.outcome).toBe('error');
    expect(verdictOf(r, A)).toBe('fail');
  });
});
