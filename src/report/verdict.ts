/**
 * The verdict of one requirement: fail if a rule of it broke or an error finding names it; pass if a test
 * that covers it ran to its end having sent the target at least one request (every verdict is earned by an
 * exchange: a test that sent nothing makes it not-observable); inconclusive if every covering test stopped
 * before judging it; skip, with the reasons, if every covering test skipped; else not-observable with the
 * catalogue's reason, or not-covered.
 */
import type { TaskMeta } from 'vitest';
import type { Finding } from '../checks/finding.ts';
import type { Requirement } from '../contract/requirements.ts';
import type { ExchangeSummary } from '../suite/conformance.ts';
import { assertionSentence, shortPropertyReport } from '../shared/assertion-sentence.ts';
import { failureOfError, failureOfFinding, failureOfRule, replayOf } from './failures.ts';
import type {
  ErrorLike,
  Evidence,
  Observation,
  Ran,
  RequirementResult,
  RunInfo,
  TestEntry,
  TestOutcome,
  Verdict,
} from './types.ts';

/** At most this many exchanges of a failing test go into each of its failures. */
export const evidencePerFailure = 10;

/**
 * The outcome of requirement `id` in one test, per requirement and not per test: an error finding
 * or a broken rule (`t.must`) naming `id` fails it; a test that ran to its end passes the rest; a
 * test stopped by another requirement's rule, by a precondition of the run's own or by our timeout
 * is inconclusive for the rest; a bare assertion (not yet tied to one requirement) fails them all.
 */
export function outcomeOf(
  r: {
    readonly entry: Pick<TestEntry, 'requirements' | 'state'>;
    readonly meta: TaskMeta;
    readonly errors: readonly ErrorLike[];
  },
  id: string,
): TestOutcome | undefined {
  const meta = r.meta;
  if ((meta.findings ?? []).some((f) => f.severity === 'error' && f.requirement === id)) return 'fail';
  if ((meta.broken ?? []).some((b) => b.requirement === id)) return 'fail';
  if (!r.entry.requirements.includes(id)) return undefined;
  if (r.entry.state === 'skipped') return 'skip';
  if (r.entry.state === 'passed') return 'pass';
  if ((meta.broken ?? []).length > 0 || meta.inconclusive !== undefined) return 'inconclusive';
  // Failed only through error findings on other requirements: every assertion of the test held.
  if (r.errors.every((e) => /check\(s\) failed on the exchanges of this test/.test(e.message))) return 'pass';
  return r.errors.some(isBareAssertion) ? 'fail' : 'inconclusive';
}

/**
 * An assertion error that no `t.must` tied to a requirement: it fails every requirement the test
 * covers. A failed property wraps it (fast-check's report, the assertion as `cause`), so the causes count too.
 */
function isBareAssertion(e: ErrorLike): boolean {
  for (
    let at: unknown = e, depth = 0;
    depth < 5 && typeof at === 'object' && at !== null;
    at = (at as ErrorLike).cause, depth++
  ) {
    const x = at as ErrorLike;
    if (typeof x.message !== 'string') return false;
    if (x.name === 'RuleBroken' || x.name === 'Inconclusive') return false;
    if (
      x.name === 'AssertionError' ||
      (x.expected !== undefined && x.actual !== undefined) ||
      /^(AssertionError: )?expected /m.test(x.message)
    )
      return true;
  }
  return false;
}

/**
 * What one test says as a whole, for a progress line: fail if it failed any requirement, else pass,
 * inconclusive or skip.
 */
export function testOutcome(r: Parameters<typeof outcomeOf>[0]): {
  readonly outcome: TestOutcome;
  readonly failed: readonly string[];
} {
  const named = new Set([
    ...r.entry.requirements,
    ...(r.meta.findings ?? []).map((f) => f.requirement),
    ...(r.meta.broken ?? []).map((b) => b.requirement),
  ]);
  const failed = [...named].filter((id) => outcomeOf(r, id) === 'fail');
  if (failed.length > 0) return { outcome: 'fail', failed };
  if (r.entry.state === 'skipped') return { outcome: 'skip', failed };
  if (r.entry.state === 'passed') return { outcome: 'pass', failed };
  // A failed test that failed none of its requirements (a precondition, our timeout, a toolkit error).
  return { outcome: r.entry.requirements.length === 0 ? 'fail' : 'inconclusive', failed };
}

/** Why a test was inconclusive about the requirements it did not fail. */
function inconclusiveReason(r: Ran): string {
  if (r.meta.inconclusive !== undefined) return r.meta.inconclusive;
  const broken = r.meta.broken ?? [];
  if (broken.length > 0) return `the test stopped when ${broken.map((b) => b.requirement).join(', ')} failed`;
  const first = (r.errors[0]?.message ?? 'an error of the run').split('\n')[0] ?? '';
  const said = first.replace(/^\[[A-Z0-9, -]+\] /, '');
  if (/^inconclusive: /.test(said)) return said.replace(/^(?:inconclusive: )+/, '').slice(0, 200);
  return `the test stopped before judging it: ${assertionSentence(said).slice(0, 200)}`;
}

/** Judges one requirement against every test of the run. */
export function judge(
  req: Requirement,
  ran: readonly Ran[],
  info: Pick<RunInfo, 'seed' | 'target'>,
): RequirementResult {
  const outcomes = ran
    .map((r) => [r, outcomeOf(r, req.id)] as const)
    .filter((x): x is readonly [Ran, TestOutcome] => x[1] !== undefined);
  const having = (o: TestOutcome): Ran[] => outcomes.filter(([, x]) => x === o).map(([r]) => r);
  const covering = ran.filter((r) => r.entry.requirements.includes(req.id));
  const errorFindings = (r: Ran): Finding[] =>
    (r.meta.findings ?? []).filter((f) => f.severity === 'error' && f.requirement === req.id);
  const brokenRules = (r: Ran) => (r.meta.broken ?? []).filter((b) => b.requirement === req.id);
  const failing = having('fail');

  let verdict: Verdict;
  let reason: string | undefined;
  if (failing.length > 0) verdict = 'fail';
  else if (having('pass').some(gotAnswers)) verdict = 'pass';
  else if (having('pass').length > 0) {
    // A verdict is earned by an answer: a test that sent nothing, or was answered nothing, observed nothing.
    verdict = 'not-observable';
    const names = having('pass').map((r) => `"${r.entry.name}"`);
    reason = having('pass').some(sentSomething)
      ? `${names.join(', ')} ran to its end without an answer from the target to any of its requests, ` +
        'so nothing of the target was observed'
      : `${names.join(', ')} ran to its end without sending anything to the target, so nothing of the target was observed`;
  } else if (having('inconclusive').length > 0) {
    verdict = 'inconclusive';
    reason = [...new Set(having('inconclusive').map(inconclusiveReason))].join('; ');
  } else if (covering.length > 0) {
    verdict = 'skip';
    reason = [...new Set(covering.map((r) => r.entry.skipReason ?? 'skipped'))].join('; ');
  } else if (req.notObservable !== undefined) {
    verdict = 'not-observable';
    reason = req.notObservable;
  } else {
    verdict = 'not-covered';
    reason = 'no test of this version covers it';
  }

  const failures = failing.flatMap((r) => {
    const common = {
      test: r.entry.name,
      ...(r.meta.counterexample !== undefined && { counterexample: shortPropertyReport(r.meta.counterexample) }),
      replay: replayOf(r.test, r.meta, r.errors, info),
      ...evidenceOf(r.meta.evidence ?? []),
    };
    const findings = errorFindings(r);
    const rules = brokenRules(r).map((b) => ({ ...failureOfRule(b), ...common }));
    if (findings.length > 0 || rules.length > 0)
      return [...rules, ...dedupe(findings).map(([f, n]) => ({ ...failureOfFinding(f, n), ...common }))];
    return [{ ...failureOfError(r.errors, r.meta), ...common }];
  });

  return {
    id: req.id,
    level: req.level,
    section: req.section,
    ...(req.subsection !== undefined && { subsection: req.subsection }),
    statement: req.statement,
    ...(req.implementationDefined === true && { implementationDefined: true as const }),
    verdict,
    ...(reason !== undefined && { reason }),
    // A test that raised an error finding about it exercised it too, even without naming it.
    tests: ran.filter((r) => covering.includes(r) || failing.includes(r)).map((r) => r.entry.name),
    observations: observationsOf(req.id, covering, ran),
    failures,
  };
}

/** Whether a test sent the target at least one request (its recorded exchanges, `meta.evidence`). */
function sentSomething(r: Ran): boolean {
  return (r.meta.evidence ?? []).length > 0;
}

/** The target answered at least one of the test's requests (a report without the count: it sent something). */
function gotAnswers(r: Ran): boolean {
  return r.meta.answered === undefined ? sentSomething(r) : r.meta.answered > 0;
}

function evidenceOf(all: readonly ExchangeSummary[]): { evidence: Evidence[]; evidenceOmitted?: number } {
  const evidence = all.slice(-evidencePerFailure).map((e) => ({ curl: e.curl, status: e.status, body: e.body }));
  return all.length > evidence.length ? { evidence, evidenceOmitted: all.length - evidence.length } : { evidence };
}

/** The same finding raised on many exchanges is one failure with a count. */
function dedupe(findings: readonly Finding[]): Array<[Finding, number]> {
  const seen = new Map<string, [Finding, number]>();
  for (const f of findings) {
    const key = `${f.check}\u0000${f.title}\u0000${f.message}`;
    const entry = seen.get(key);
    if (entry) entry[1] += 1;
    else seen.set(key, [f, 1]);
  }
  return [...seen.values()];
}

function observationsOf(id: string, covering: readonly Ran[], ran: readonly Ran[]): Observation[] {
  const out: Observation[] = [];
  const seen = new Set<string>();
  const add = (o: Observation): void => {
    const key = `${o.test}\u0000${o.type}\u0000${o.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(o);
  };
  for (const r of covering)
    for (const a of r.test.annotations()) add({ test: r.entry.name, type: a.type, message: a.message });
  for (const r of ran) {
    for (const f of r.meta.findings ?? []) {
      if (f.severity === 'warning' && f.requirement === id)
        add({ test: r.entry.name, type: 'warning', message: `${f.title}: ${f.message.replaceAll('\n', '; ')}` });
    }
  }
  return out;
}
