/**
 * The counts of a report: requirements by verdict, overall and per level, tests by state, and the
 * outcome the `run` command's exit status follows ({@link exitStatusOf}).
 */
import type { Counts, RequirementResult, Summary, TestEntry, Verdict } from './types.ts';

function emptyCounts(): { -readonly [K in keyof Counts]: number } {
  return { total: 0, pass: 0, fail: 0, inconclusive: 0, skip: 0, notObservable: 0, notCovered: 0 };
}

const countKey = {
  pass: 'pass',
  fail: 'fail',
  inconclusive: 'inconclusive',
  skip: 'skip',
  'not-observable': 'notObservable',
  'not-covered': 'notCovered',
} as const satisfies Record<Verdict, keyof Counts>;

/** The counts key of a verdict (`not-observable` → `notObservable`). */
export function countOf(counts: Counts, verdict: Verdict): number {
  return counts[countKey[verdict]];
}

/** Counts the verdicts and tests of a run. */
export function summarise(
  requirements: readonly RequirementResult[],
  tests: readonly TestEntry[],
  errors: number,
): Summary {
  const all = emptyCounts();
  const byLevel = { MUST: emptyCounts(), SHOULD: emptyCounts(), MAY: emptyCounts() };
  let binding = 0;
  for (const r of requirements) {
    // Only a MUST the spec's own words make (not an implementation-defined point), and not a failure the
    // user's expectations file names, decides the outcome.
    if (r.verdict === 'fail' && r.level === 'MUST' && r.implementationDefined !== true && r.expected === undefined)
      binding += 1;
    for (const c of [all, byLevel[r.level]]) {
      c.total += 1;
      c[countKey[r.verdict]] += 1;
    }
  }
  const failed = tests.filter((t) => t.state === 'failed');
  const unowned = failed.some((t) => t.requirements.length === 0);
  const exercised = all.pass + all.fail;
  return {
    outcome: outcomeOf(errors, binding > 0 || unowned, exercised, all.inconclusive),
    passRate: exercised === 0 ? null : all.pass / exercised,
    requirements: all,
    byLevel,
    // By what each test says as a whole (TestEntry.outcome): a failed test that failed none of its
    // requirements is inconclusive.
    tests: {
      total: tests.length,
      passed: tests.filter((t) => t.state === 'passed').length,
      failed: failed.filter((t) => t.outcome !== 'inconclusive').length,
      inconclusive: failed.filter((t) => t.outcome === 'inconclusive').length,
      skipped: tests.filter((t) => t.state === 'skipped').length,
    },
    errors,
  };
}

/**
 * The exit status of `run` for an outcome: 0 pass, 1 fail (a binding MUST failed), 2 error (the run had
 * errors of its own).
 */
export function exitStatusOf(outcome: Summary['outcome']): 0 | 1 | 2 {
  return outcome === 'pass' ? 0 : outcome === 'fail' ? 1 : 2;
}

/**
 * Errors of the run's own (a file that did not load, an unhandled error) leave the verdicts
 * incomplete: not a finding, `error`. So does a run that judged nothing because every test that
 * ran stopped before judging (a setup problem, e.g. test control refusing every account): calling
 * that a pass would tell CI the target conforms when the suite saw nothing.
 */
function outcomeOf(errors: number, failed: boolean, judged: number, inconclusive: number): Summary['outcome'] {
  if (errors > 0) return 'error';
  if (failed) return 'fail';
  return judged === 0 && inconclusive > 0 ? 'error' : 'pass';
}
