import { execFileSync } from 'node:child_process';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { requirement, type RequirementId } from '../contract/requirements.ts';
import { fakeInfo, fakeModule, fakeReport, fakeTest, type FakeTest } from './fake-run.ts';
import {
  buildReport,
  publicUrl,
  type RequirementResult,
  type RunInfo,
  type TestModuleLike,
  type Verdict,
} from './model.ts';
import { evidencePerFailure } from './verdict.ts';

const observable: RequirementId = 'AUTH-BEARER-REQUIRED';
const notObservable: RequirementId = 'SVC-TYPICAL-CLIENT-FLOW';
const other: RequirementId = 'ERR-ENVELOPE-SHAPE';

function judge(id: RequirementId, tests: readonly FakeTest[], info: RunInfo = fakeInfo): RequirementResult {
  const report = buildReport([fakeModule('src/suite/x.suite.ts', tests.map(fakeTest))], info, [
    requirement(id),
    requirement(other),
  ]);
  const result = report.requirements.find((r) => r.id === id);
  if (result === undefined) throw new Error(`no verdict for ${id}`);
  return result;
}

const passed = (name: string, ids: RequirementId[] = [observable]): FakeTest => ({
  name,
  state: 'passed',
  requirements: ids,
});
/** A test that failed on a bare assertion (no `t.must`): it fails every requirement it covers. */
const failed = (name: string, ids: RequirementId[] = [observable], meta: FakeTest['meta'] = {}): FakeTest => ({
  name,
  state: 'failed',
  requirements: ids,
  meta,
  errors: [{ name: 'AssertionError', message: 'expected 404 to be 401' }],
});
const skipped = (name: string, reason: string, ids: RequirementId[] = [observable]): FakeTest => ({
  name,
  state: 'skipped',
  requirements: ids,
  meta: { skipReason: reason },
});

describe('buildReport: the verdict of a requirement', () => {
  const errorFinding = {
    check: 'envelope',
    requirement: observable,
    title: 'Not the envelope',
    message: 'Received: {}\nDocumented: {error, code}',
    severity: 'error' as const,
    exchange: 1,
  };
  const warningFinding = { ...errorFinding, severity: 'warning' as const, title: 'Terse message' };

  const rows: Array<[string, { id?: RequirementId; tests: FakeTest[]; want: Verdict; reason?: string }]> = [
    ['pass when a covering test passed', { tests: [passed('a')], want: 'pass' }],
    [
      'pass when one covering test passed and another skipped',
      { tests: [passed('a'), skipped('b', 'needs x')], want: 'pass' },
    ],
    ['fail when a covering test failed, even if another passed', { tests: [passed('a'), failed('b')], want: 'fail' }],
    [
      'fail when an error finding names it, from a test that covers something else',
      { tests: [failed('b', [other], { findings: [errorFinding] })], want: 'fail' },
    ],
    [
      'fail when an error finding names it, even from a skipped test',
      {
        tests: [
          passed('a'),
          {
            ...skipped('b', 'out of budget', [other]),
            meta: { skipReason: 'out of budget', findings: [errorFinding] },
          },
        ],
        want: 'fail',
      },
    ],
    [
      'inconclusive, with the reason, when the covering test stopped on an error that is not an assertion',
      {
        tests: [{ name: 'a', state: 'failed', requirements: [observable], errors: [{ message: 'socket hang up' }] }],
        want: 'inconclusive',
        reason: 'the test stopped before judging it: socket hang up',
      },
    ],
    [
      'pass when only a warning finding names it',
      { tests: [{ ...passed('a'), meta: { findings: [warningFinding] } }], want: 'pass' },
    ],
    [
      'skip, with every distinct reason, when all covering tests skipped',
      {
        tests: [
          skipped('a', 'needs test-control: no'),
          skipped('b', 'needs scenarios: no'),
          skipped('c', 'needs scenarios: no'),
        ],
        want: 'skip',
        reason: 'needs test-control: no; needs scenarios: no',
      },
    ],
    [
      'skip with vitest’s skip note when the test left no reason in meta',
      {
        tests: [{ name: 'a', state: 'skipped', requirements: [observable], note: 'ctx.skip note' }],
        want: 'skip',
        reason: 'ctx.skip note',
      },
    ],
    [
      'skip when the run stopped before a covering test finished',
      {
        tests: [{ name: 'a', state: 'pending', requirements: [observable] }],
        want: 'skip',
        reason: 'not run: the run was interrupted',
      },
    ],
    [
      'skip, not not-observable, when a test covers an unobservable requirement but skipped',
      { id: notObservable, tests: [skipped('a', 'needs x', [notObservable])], want: 'skip', reason: 'needs x' },
    ],
    [
      'not-observable with the catalogue’s reason when no test covers it',
      {
        id: notObservable,
        tests: [passed('a')],
        want: 'not-observable',
        reason: requirement(notObservable).notObservable ?? '',
      },
    ],
    [
      'not-covered when no test covers an observable requirement',
      { tests: [passed('a', [other])], want: 'not-covered', reason: 'no test of this version covers it' },
    ],
  ];

  it.each(rows)('%s', (_name, { id = observable, tests, want, reason }) => {
    const r = judge(id, tests);
    expect(r.verdict).toBe(want);
    if (reason !== undefined) expect(r.reason).toBe(reason);
    expect(r.failures.length > 0).toBe(want === 'fail');
  });
});

describe('buildReport: failures', () => {
  it('splits a finding into expected (Documented) and received, and counts repeats', () => {
    const finding = {
      check: 'status-documented',
      requirement: observable,
      title: 'Undocumented status',
      message: 'Received: 500\nDocumented: 200, 400',
      severity: 'error' as const,
      exchange: 1,
    };
    const r = judge(observable, [
      failed('a', [observable], { findings: [finding, { ...finding, exchange: 2 }, { ...finding, exchange: 3 }] }),
    ]);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]).toMatchObject({
      test: 'a',
      message: 'Undocumented status',
      expected: '200, 400',
      received: '500',
      check: 'status-documented',
      occurrences: 3,
    });
  });

  it('reads a failed property: the assertion from the error’s cause, the counterexample, and its seed and path', () => {
    const report = fakeReport();
    const r = report.requirements.find((q) => q.id === 'CREATE-IDEMPOTENCY-REPLAY');
    expect(r?.verdict).toBe('fail');
    const f = r?.failures[0];
    expect(f).toMatchObject({
      message: "expected 'ton_01', received 'ton_02'",
      expected: "'ton_01'",
      received: "'ton_02'",
      replay: { seed: 1234567, path: '2:0:1' },
    });
    expect(f?.counterexample).toContain('Counterexample: [');
    expect(f?.replay.command).toBe(
      'npx tryon-conformance run --base-url "http://127.0.0.1:8787/api/v1" --seed 1234567 --path 2:0:1 --grep "replays the first try-on for a reused Idempotency-Key"',
    );
  });

  it('reads expected and received out of a one-line assertion message when vitest gave none', () => {
    const r = judge(observable, [
      {
        name: 'a',
        state: 'failed',
        requirements: [observable],
        errors: [{ message: 'AssertionError: expected 404 to deeply equal 405' }],
      },
    ]);
    expect(r.failures[0]).toMatchObject({ expected: '405', received: '404' });
  });

  it('quotes the test name for the shell and escapes it for --grep, and leaves out --base-url for the embedded server', () => {
    const name = 'sends "$HOME" (4 MB = 4 MiB) `x` \\ [a|b]';
    const r = judge(observable, [failed(name)], {
      ...fakeInfo,
      target: { baseUrl: 'http://127.0.0.1:1/api/v1', embedded: true },
    });
    const command = r.failures[0]?.replay.command ?? '';
    expect(command).toMatch(/^npx tryon-conformance run --seed 1234567 --grep "/);
    // What the shell hands to --grep is a pattern that matches the name, and only as a literal.
    const pattern = execFileSync('sh', ['-c', `printf %s ${command.slice(command.indexOf('--grep ') + 7)}`], {
      encoding: 'utf8',
    });
    expect(new RegExp(pattern).test(`suite ${name}`)).toBe(true);
    expect(new RegExp(pattern).test(name.replace('(', ''))).toBe(false);
  });

  it('keeps the last exchanges of a failing test and says how many were left out', () => {
    const evidence = Array.from({ length: 30 }, (_, i) => ({ curl: `curl ${i}`, status: 200, body: '' }));
    const r = judge(observable, [failed('a', [observable], { evidence })]);
    expect(r.failures[0]?.evidence).toHaveLength(evidencePerFailure);
    expect(r.failures[0]?.evidence.at(-1)?.curl).toBe('curl 29');
    expect(r.failures[0]?.evidenceOmitted).toBe(30 - evidencePerFailure);
  });
});

describe('buildReport: the run', () => {
  it('collects annotations of covering tests and warning findings as observations', () => {
    const r = judge(observable, [
      { ...passed('a'), annotations: [{ type: 'observed', message: 'Retry-After 47 s' }] },
      {
        ...passed('b', [other]),
        meta: {
          findings: [
            {
              check: 'c',
              requirement: observable,
              title: 'Terse',
              message: 'Received: x\nDocumented: y',
              severity: 'warning',
              exchange: 1,
            },
          ],
        },
      },
    ]);
    expect(r.observations).toEqual([
      { test: 'a', type: 'observed', message: 'Retry-After 47 s' },
      { test: 'b', type: 'warning', message: 'Terse: Received: x; Documented: y' },
    ]);
  });

  it('keeps no credentials or query of the base URL', () => {
    expect(fakeReport().target.baseUrl).toBe('http://127.0.0.1:8787/api/v1');
    expect(JSON.stringify(fakeReport())).not.toContain('secret');
    expect(publicUrl('https://k:p@api.example.com/api/v1/?token=x#y')).toBe('https://api.example.com/api/v1');
  });

  it('counts requirements by verdict and level, and fails the outcome only for MUST failures', () => {
    const s = fakeReport().summary;
    expect(s.requirements).toEqual({
      total: 23,
      pass: 9,
      fail: 6,
      inconclusive: 2,
      skip: 2,
      notObservable: 2,
      notCovered: 2,
    });
    expect(s.byLevel.MUST.fail).toBe(5);
    expect(s.tests).toEqual({ total: 11, passed: 4, failed: 4, inconclusive: 1, skipped: 2 });
    expect(s.passRate).toBeCloseTo(9 / 15);
    expect(s.outcome).toBe('fail');

    const shouldOnly = buildReport(
      [fakeModule('f', [fakeTest(failed('slow', ['SVC-MOST-RESULTS-UNDER-30-SECONDS']))])],
      fakeInfo,
      [requirement('SVC-MOST-RESULTS-UNDER-30-SECONDS')],
    );
    expect(shouldOnly.summary.outcome).toBe('pass');
    expect(shouldOnly.summary.requirements.fail).toBe(1);
  });

  it('reports a file that failed to load and an unhandled error as errors of the run (outcome error), not as failed requirements', () => {
    const report = buildReport(
      [
        fakeModule('src/suite/broken.suite.ts', [], [{ message: 'SyntaxError: Unexpected token' }]),
        fakeModule('src/suite/x.suite.ts', [fakeTest(passed('a'))]),
      ],
      { ...fakeInfo, unhandledErrors: [{ message: 'socket hang up' }] },
      [requirement(observable), requirement(other)],
    );
    expect(report.errors).toEqual([
      { file: 'src/suite/broken.suite.ts', message: 'SyntaxError: Unexpected token' },
      { message: 'socket hang up' },
    ]);
    expect(report.summary.outcome).toBe('error');
    expect(report.summary.errors).toBe(2);
    expect(report.requirements.map((r) => r.verdict)).toEqual(['pass', 'not-covered']);
  });

  it('judges against the whole catalogue by default, in catalogue order', () => {
    const report = buildReport([], fakeInfo);
    expect(report.requirements.map((r) => r.id)[0]).toBe('SVC-INPUT-URL-OR-ID');
    expect(report.summary.requirements.pass + report.summary.requirements.fail).toBe(0);
    expect(report.summary.passRate).toBeNull();
  });

  it('takes vitest’s TestModule as it is', () => {
    expectTypeOf<TestModule>().toExtend<TestModuleLike>();
  });
});
