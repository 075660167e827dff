/**
 * The client grade: every caller of the sandbox judged against every client rule. A rule with at
 * least one failing occasion fails; with passing occasions only, passes; with none, is "not
 * exercised". Evidence is the requests themselves, redacted (no API key; a body only as a digest).
 */
import { requirement, type RequirementId } from '../contract/requirements.ts';
import type { NotKept } from './call-buckets.ts';
import type { CallLog } from './call-log.ts';
import type { CallRecord } from './call-record.ts';
import { clientRules, type Occasion } from './client-rules.ts';

export type GradeVerdict = 'pass' | 'fail' | 'not-exercised';

export interface GradedRule {
  readonly id: RequirementId;
  readonly level: string;
  readonly quote: string;
  readonly judged: string;
  readonly verdict: GradeVerdict;
  readonly occasions: number;
  readonly failures: ReadonlyArray<{ readonly what: string; readonly evidence: readonly string[] }>;
  /** One passing occasion, as an example, when the rule passed. */
  readonly example?: string;
}

export interface CallerGrade {
  /** The account id, or "unknown key sha256:…" / "no API key" for requests no account owns. */
  readonly caller: string;
  readonly requests: number;
  /** The caller's older requests that were let go (past the bound of what is kept per account), not graded. */
  readonly notKept: number;
  readonly verdict: 'pass' | 'fail' | 'not-exercised';
  readonly rules: readonly GradedRule[];
}

/** What the sandbox keeps to grade, and what it let go (call-buckets.ts). */
export interface GradeRecording {
  readonly perAccount: number;
  readonly withoutAccount: number;
  readonly accounts: number;
  /** Every request let go: the sum of the three below. */
  readonly notKept: number;
  readonly notKeptOfAccounts: number;
  readonly notKeptWithoutAccount: number;
  readonly notKeptBeyondAccounts: number;
}

export interface ClientGrade {
  readonly kind: 'client-grade';
  readonly generatedAt: string;
  readonly callers: readonly CallerGrade[];
  readonly summary: {
    readonly callers: number;
    readonly failingCallers: number;
    readonly pass: number;
    readonly fail: number;
    readonly notExercised: number;
  };
  readonly recording?: GradeRecording;
}

/** A request as one redacted evidence line, its time relative to `t0`. */
export function evidenceLine(r: CallRecord, t0: number): string {
  const parts = [`+${((r.startedAt - t0) / 1000).toFixed(3)}s`, r.method, r.path];
  if (r.idempotencyKey !== undefined) parts.push(`Idempotency-Key: ${r.idempotencyKey}`);
  if (r.bodyDigest !== undefined) parts.push(`body sha256:${r.bodyDigest.slice(0, 12)}`);
  if (r.browserSigns.length > 0) parts.push(`[${r.browserSigns.join('; ')}]`);
  parts.push('→');
  if (r.dropped)
    parts.push(`dropped by the client after ${(((r.endedAt ?? r.startedAt) - r.startedAt) / 1000).toFixed(3)} s`);
  else {
    parts.push(`${r.status ?? '?'}${r.code ? ` ${r.code}` : ''}${r.tryOnStatus ? ` ${r.tryOnStatus}` : ''}`);
    if (r.retryAfterSeconds !== undefined) parts.push(`(Retry-After: ${r.retryAfterSeconds})`);
  }
  return parts.join(' ');
}

function gradeRule(
  rule: (typeof clientRules)[number],
  records: readonly CallRecord[],
  now: number,
  t0: number,
): GradedRule {
  const occasions: Occasion[] = rule.judge(records, { now });
  const failing = occasions.filter((o) => !o.ok);
  const req = requirement(rule.id);
  const verdict: GradeVerdict = occasions.length === 0 ? 'not-exercised' : failing.length > 0 ? 'fail' : 'pass';
  return {
    id: rule.id,
    level: req.level,
    quote: req.quote,
    judged: rule.judged,
    verdict,
    occasions: occasions.length,
    failures: failing.slice(0, 10).map((o) => ({ what: o.what, evidence: o.evidence.map((r) => evidenceLine(r, t0)) })),
    ...(verdict === 'pass' && { example: occasions[0]?.what ?? '' }),
  };
}

/** Grades the callers of a call log (all, or `onlyCaller`) at the server time `now`, with what it let go. */
export function gradeCallLog(log: CallLog, now: number, onlyCaller?: string): ClientGrade {
  return gradeClients(log.records(onlyCaller), now, onlyCaller, log.notKept());
}

/** Grades every caller in `records` (oldest first) at the server time `now`; `notKept` says what the log let go. */
export function gradeClients(
  records: readonly CallRecord[],
  now: number,
  onlyCaller?: string,
  notKept?: NotKept,
): ClientGrade {
  const byCaller = new Map<string, CallRecord[]>();
  for (const r of records) {
    if (onlyCaller !== undefined && r.caller !== onlyCaller) continue;
    const list = byCaller.get(r.caller);
    if (list) list.push(r);
    else byCaller.set(r.caller, [r]);
  }
  const callers = [...byCaller.entries()].map(([caller, list]): CallerGrade => {
    const t0 = list[0]?.startedAt ?? now;
    const rules = clientRules.map((rule) => gradeRule(rule, list, now, t0));
    const verdict = rules.some((r) => r.verdict === 'fail')
      ? 'fail'
      : rules.some((r) => r.verdict === 'pass')
        ? 'pass'
        : 'not-exercised';
    return { caller, requests: list.length, notKept: notKept?.byAccount.get(caller) ?? 0, verdict, rules };
  });
  const all = callers.flatMap((c) => c.rules);
  return {
    kind: 'client-grade',
    generatedAt: new Date(now).toISOString(),
    callers,
    summary: {
      callers: callers.length,
      failingCallers: callers.filter((c) => c.verdict === 'fail').length,
      pass: all.filter((r) => r.verdict === 'pass').length,
      fail: all.filter((r) => r.verdict === 'fail').length,
      notExercised: all.filter((r) => r.verdict === 'not-exercised').length,
    },
    ...(notKept && { recording: recordingOf(notKept) }),
  };
}

function recordingOf(notKept: NotKept): GradeRecording {
  const ofAccounts = [...notKept.byAccount.values()].reduce((a, b) => a + b, 0);
  return {
    ...notKept.limits,
    notKept: ofAccounts + notKept.withoutAccount + notKept.beyondAccounts,
    notKeptOfAccounts: ofAccounts,
    notKeptWithoutAccount: notKept.withoutAccount,
    notKeptBeyondAccounts: notKept.beyondAccounts,
  };
}
