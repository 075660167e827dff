/**
 * The verdict of one requirement (report issue): fail if a covering test failed or an error
 * finding names it; pass if a covering test passed; skip, with the reasons, if every covering test
 * skipped; else not-observable with the catalogue's reason, or not-covered.
 */
import type { TaskMeta } from 'vitest';
import type { Finding } from '../checks/finding.ts';
import type { Requirement } from '../spec/requirements.ts';
import type { ExchangeSummary } from '../suite/conformance.ts';
import { failureOfError, failureOfFinding, replayOf } from './failures.ts';
import type { ErrorLike, Evidence, Observation, RequirementResult, RunInfo, TestCaseLike, TestEntry, Verdict } from './model.ts';

/** At most this many exchanges of a failing test go into each of its failures. */
export const evidencePerFailure = 10;

/** One test of the run, as the verdicts read it. */
export interface Ran {
  readonly test: TestCaseLike;
  readonly entry: TestEntry;
  readonly meta: TaskMeta;
  readonly errors: readonly ErrorLike[];
}

/** Judges one requirement against every test of the run. */
export function judge(req: Requirement, ran: readonly Ran[], info: Pick<RunInfo, 'seed' | 'target'>): RequirementResult {
  const covering = ran.filter((r) => r.entry.requirements.includes(req.id));
  const errorFindings = (r: Ran): Finding[] => (r.meta.findings ?? []).filter((f) => f.severity === 'error' && f.requirement === req.id);
  const failing = ran.filter((r) => (covering.includes(r) && r.entry.state === 'failed') || errorFindings(r).length > 0);

  let verdict: Verdict;
  let reason: string | undefined;
  if (failing.length > 0) verdict = 'fail';
  else if (covering.some((r) => r.entry.state === 'passed')) verdict = 'pass';
  else if (covering.length > 0) {
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
      ...(r.meta.counterexample !== undefined && { counterexample: r.meta.counterexample }),
      replay: replayOf(r.test, r.meta, r.errors, info),
      ...evidenceOf(r.meta.evidence ?? []),
    };
    const findings = errorFindings(r);
    return findings.length > 0 ? dedupe(findings).map(([f, n]) => ({ ...failureOfFinding(f, n), ...common })) : [{ ...failureOfError(r.errors, r.meta), ...common }];
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
  for (const r of covering) for (const a of r.test.annotations()) add({ test: r.entry.name, type: a.type, message: a.message });
  for (const r of ran) {
    for (const f of r.meta.findings ?? []) {
      if (f.severity === 'warning' && f.requirement === id) add({ test: r.entry.name, type: 'warning', message: `${f.title}: ${f.message.replaceAll('\n', '; ')}` });
    }
  }
  return out;
}
