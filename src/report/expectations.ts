/**
 * Known failures (`run --expect FILE`): requirements a user says fail on their target, each with a
 * reason. An expected failure keeps its verdict `fail` but no longer decides the outcome; an entry
 * whose requirement passes, or whose expiry date is past, is stale and is reported so the file can
 * shrink; with `strict` a stale entry fails the run.
 */
import type { Expectation, ExpectationResult, Expectations, ExpectationStatus } from './expectation-types.ts';
import { summarise } from './summary.ts';
import type { Report, RequirementResult } from './types.ts';

export type * from './expectation-types.ts';

/** The statuses that say the entry should go: they fail a strict run. */
export const staleStatuses: readonly ExpectationStatus[] = ['unexpectedly-passing', 'expired'];

/** A failure the expectations file names: reported, but it does not decide the outcome. */
export function isExpectedFailure(r: Pick<RequirementResult, 'verdict' | 'expected'>): boolean {
  return r.verdict === 'fail' && r.expected !== undefined;
}

/** `today` as YYYY-MM-DD in UTC, the calendar of the expiry dates. */
export function utcDay(today: Date): string {
  return today.toISOString().slice(0, 10);
}

/** The status of `entry` given its requirement's verdict (absent when the catalogue has no such requirement). */
export function statusOf(entry: Expectation, r: RequirementResult | undefined, today: Date): ExpectationStatus {
  if (r?.verdict === 'pass') return 'unexpectedly-passing';
  if (entry.expires !== undefined && entry.expires < utcDay(today)) return 'expired';
  return r?.verdict === 'fail' ? 'failing' : 'not-judged';
}

/**
 * The report with `expectations` applied: each named requirement carries its entry and status, the
 * summary's outcome no longer counts expected failures, and a strict run with a stale entry fails.
 */
export function withExpectations(report: Report, expectations: Expectations | undefined, today: Date): Report {
  if (expectations === undefined) return report;
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  const entries = expectations.entries.map((e) => ({ ...e, status: statusOf(e, byId.get(e.id), today) }));
  const ofId = new Map(entries.map((e) => [e.id, e]));
  const requirements = report.requirements.map((r): RequirementResult => {
    const entry = ofId.get(r.id);
    return entry === undefined ? r : { ...r, expected: entry };
  });
  const summary = summarise(requirements, report.tests, report.errors.length);
  const stale = entries.some((e) => staleStatuses.includes(e.status));
  const outcome = expectations.strict && stale && summary.outcome === 'pass' ? 'fail' : summary.outcome;
  return {
    ...report,
    summary: { ...summary, outcome },
    requirements,
    expectations: { file: expectations.file, strict: expectations.strict, entries },
  };
}

/** How many entries have each status. */
export function expectationCounts(report: Pick<Report, 'expectations'>): Record<ExpectationStatus, number> {
  const counts = { failing: 0, 'unexpectedly-passing': 0, expired: 0, 'not-judged': 0 };
  for (const e of report.expectations?.entries ?? []) counts[e.status] += 1;
  return counts;
}

/** The stale entries of a strict run: what made it fail although no unexpected requirement failed. */
export function strictStale(report: Pick<Report, 'expectations'>): ExpectationResult[] {
  const x = report.expectations;
  return x?.strict ? x.entries.filter((e) => staleStatuses.includes(e.status)) : [];
}
