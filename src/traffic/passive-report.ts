/**
 * The passive judge's ledger as the run's report: each requirement a rule family judged becomes one
 * test (`traffic > <family> > <id>`) that covers it, carries its findings and the exchanges behind
 * them, and counts the occasions as the answers it got; `buildReport` then gives every verdict by the
 * run's own rules. A requirement a family can judge that no exchange exercised is `not-observable`
 * (the run's verdict for a test that observed nothing: "every verdict is earned by an exchange"),
 * never a pass; one no family judges keeps the catalogue's verdict (`not-observable` with its reason,
 * or `not-covered`). Every string is redacted as the client grade is.
 */
import { paths } from '../contract/paths.ts';
import { allRequirements, type RequirementId } from '../contract/requirements.ts';
import { toCurl } from '../client/curl.ts';
import type { Finding } from '../checks/finding.ts';
import type { ClientGrade } from '../grade/grade.ts';
import { redact, redactGrade } from '../grade/redact.ts';
import { buildReport } from '../report/model.ts';
import { sha256File, toolIdentity } from '../report/run-info.ts';
import type { Report, RequirementResult, TestCaseLike, TestModuleLike } from '../report/types.ts';
import type { Entry, Ledger } from './ledger.ts';
import type { TrafficExchange } from './traffic-exchange.ts';

export interface PassiveReportInfo {
  /** What was judged: the proxy's upstream, or the recording (a URL; credentials and query are dropped). */
  readonly target?: string;
  /** Records of a recording that could not be read. */
  readonly unreadRecords?: number;
  /** The traffic is over: intervals still waiting to settle are judged (the proxy's shutdown, judge FILE). */
  readonly final?: boolean;
}

/** What the judge has seen so far, for the report and the proxy's status. */
export interface TrafficSeen {
  readonly exchanges: number;
  /** State let go past the caps (accounts, try-ons, keys), summed over the rules. */
  readonly notKept: number;
  readonly firstAt?: number;
  readonly lastAt?: number;
}

/** The start of a test name, so a report of traffic reads as one. */
export const trafficTestPrefix = 'traffic';

function evidenceOf(te: TrafficExchange): { curl: string; status: number | null; body: string } {
  const { request, response } = te.exchange;
  if (response === undefined) return { curl: redact(toCurl(request)), status: null, body: '(no answer: dropped)' };
  return { curl: redact(toCurl(request)), status: response.status, body: redact(response.text.slice(0, 500)) };
}

function testOf(id: RequirementId, entry: Entry | undefined, family: string): TestCaseLike {
  const findings: Finding[] = entry?.findings ?? [];
  const failed = findings.length > 0;
  const name = `${trafficTestPrefix} > ${family} > ${id}`;
  const errors = failed
    ? [
        {
          message:
            `${findings.length + (entry?.findingsNotKept ?? 0)} check(s) failed on the exchanges of this test:\n` +
            findings
              .slice(0, 5)
              .map((f) => `- [${f.requirement}] ${f.title}`)
              .join('\n'),
        },
      ]
    : undefined;
  return {
    name,
    fullName: name,
    meta: () => ({
      requirements: [id],
      findings,
      evidence: (entry?.evidence ?? []).map(evidenceOf),
      answered: entry?.judged ?? 0,
    }),
    result: () => ({ state: failed ? 'failed' : 'passed', errors }),
    annotations: () => (entry?.observations ?? []).map((message) => ({ type: 'observed', message })),
    diagnostic: () => ({ duration: 0 }),
  };
}

function modulesOf(ledger: Ledger): TestModuleLike[] {
  const byFamily = new Map<string, TestCaseLike[]>();
  const add = (family: string, test: TestCaseLike): void => {
    byFamily.set(family, [...(byFamily.get(family) ?? []), test]);
  };
  const entries = ledger.entries();
  const declared = ledger.declared();
  for (const [id, entry] of entries) add(entry.family, testOf(id, entry, entry.family));
  for (const [id, d] of declared) if (!entries.has(id)) add(d.family, testOf(id, undefined, d.family));
  return [...byFamily].map(([family, tests]) => ({
    relativeModuleId: `${trafficTestPrefix}/${family.replaceAll(' ', '-')}`,
    state: () => (tests.some((t) => t.result().state === 'failed') ? 'failed' : 'passed'),
    errors: () => [],
    children: { allTests: () => tests[Symbol.iterator]() },
  }));
}

/** The reason of a verdict no exchange earned, in the words of traffic. */
function reasonOf(r: RequirementResult, ledger: Ledger): RequirementResult {
  const entry = ledger.entries().get(r.id as RequirementId);
  const declared = ledger.declared().get(r.id as RequirementId);
  if (r.verdict === 'not-observable' && (entry !== undefined || declared !== undefined) && (entry?.judged ?? 0) === 0) {
    const needs = declared?.needs ?? 'an exchange that shows it';
    return { ...r, reason: `not exercised: no exchange of the traffic showed ${needs}` };
  }
  if (r.verdict === 'not-covered')
    return { ...r, reason: 'no passive rule judges it: it needs requests of its own (a run judges it)' };
  return r;
}

const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

/** The report of the traffic judged so far. */
export function buildPassiveReport(
  ledger: Ledger,
  seen: TrafficSeen,
  info: PassiveReportInfo,
  clientGrade?: ClientGrade,
): Report {
  const report = buildReport(
    modulesOf(ledger),
    {
      tool: toolIdentity(),
      target: { baseUrl: info.target ?? 'http://traffic.invalid', embedded: false },
      openapiSha256: sha256File(paths.openapi),
      seed: 0,
      profile: 'full',
      capabilities: {},
      startedAt: iso(seen.firstAt) ?? new Date().toISOString(),
      durationMs: seen.firstAt !== undefined && seen.lastAt !== undefined ? seen.lastAt - seen.firstAt : 0,
    },
    allRequirements(),
  );
  const firstAt = iso(seen.firstAt);
  const lastAt = iso(seen.lastAt);
  return redactGrade({
    ...report,
    requirements: report.requirements.map((r) => reasonOf(r, ledger)),
    source: 'traffic' as const,
    traffic: {
      exchanges: seen.exchanges,
      notKept: seen.notKept,
      ...(info.unreadRecords !== undefined && { unreadRecords: info.unreadRecords }),
      ...(firstAt !== undefined && { firstAt }),
      ...(lastAt !== undefined && { lastAt }),
    },
    ...(clientGrade !== undefined && { clientGrade: clientGrade as unknown as Record<string, unknown> }),
  });
}
