/**
 * The client grader fed by live traffic (the proxy) or a recording: each TrafficExchange becomes the
 * same call record the sandbox's own hook makes (call-record.ts), in the same bounded call log, judged
 * by the same client rules. A caller is named by the digest of its key (`key:…`), since a proxy never
 * knows the account behind a key, or `no API key`, as the sandbox names it.
 */
import { readJsonBody } from '../shared/json-bounds.ts';
import type { TrafficExchange } from '../traffic/traffic-exchange.ts';
import type { RecordLimits } from './call-buckets.ts';
import { CallLog, type GradeClock } from './call-log.ts';
import { isGraded, openRecord, recordAnswer, recordBody, type CallRecord } from './call-record.ts';
import { gradeCallLog, type ClientGrade } from './grade.ts';

export interface TrafficGraderOptions {
  /**
   * The time a grade is made at. By default the end of the latest exchange observed: a recording is
   * judged as of its end; a live proxy passes its own clock, so a 202 nobody polled is judged in time.
   */
  readonly clock?: GradeClock;
  readonly limits?: RecordLimits;
}

/** The caller of an exchange as a grade names it: the key's digest, or `no API key` as the sandbox says. */
export function callerOf(te: TrafficExchange): string {
  return te.account === 'none' ? 'no API key' : te.account;
}

/** A request target from a recorded URL: its path and query as sent (an absolute URL loses its origin). */
function targetOf(url: string): string {
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
}

/** The value of header `name` (lower case), whatever the case it was recorded in; the first spelling wins. */
function header(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const key in headers) if (key === name || key.toLowerCase() === name) return headers[key];
  return undefined;
}

/**
 * The parsed JSON body of a request, as the sandbox's JSON parser would read it: only with a JSON
 * content type, whole (not cut by the capture bound), and within the runner's JSON bounds.
 */
function requestJson(te: TrafficExchange): unknown {
  const { body, headers } = te.exchange.request;
  if (body === undefined || te.partial?.request === true) return undefined;
  if (!/^\s*application\/json\s*(;|$)/i.test(header(headers, 'content-type') ?? '')) return undefined;
  const reading = readJsonBody(Buffer.from(body, 'utf8'));
  return reading !== undefined && 'json' in reading ? reading.json : undefined;
}

/** The call record of one exchange (numbered `seq`), or undefined for the sandbox's test control. */
export function callRecordOf(te: TrafficExchange, seq: number): CallRecord | undefined {
  const { request, response } = te.exchange;
  const target = targetOf(request.url);
  if (!isGraded(target)) return undefined;
  const facts = { method: request.method, target, headers: request.headers };
  const record = openRecord(seq, callerOf(te), facts, te.startedAt);
  recordBody(record, requestJson(te));
  // Dropped before any answer: no status, as the sandbox's hook records a call the client gave up on.
  if (response !== undefined) {
    const json = te.partial?.response === true ? undefined : response.json;
    recordAnswer(record, { json, retryAfter: header(response.headers, 'retry-after') });
    record.status = response.status;
  }
  record.dropped = te.dropped === true || response === undefined;
  record.endedAt = te.endedAt;
  return record;
}

/** Grades every client seen in traffic against the spec's client rules, as `serve --grade-clients` does. */
export class TrafficGrader {
  readonly #log: CallLog;
  #latest = 0;

  constructor(options: TrafficGraderOptions = {}) {
    this.#log = new CallLog(options.clock ?? { now: () => this.#latest }, options.limits);
  }

  /** Takes one finished exchange in. A request whose key the upstream refused (401) is kept apart from accounts. */
  observe(te: TrafficExchange): void {
    const record = callRecordOf(te, this.#log.nextSeq());
    if (record === undefined) return;
    this.#latest = Math.max(this.#latest, te.endedAt, te.startedAt);
    this.#log.add(record, te.account !== 'none' && record.status !== 401);
  }

  /** The grade of every caller seen (or of `onlyCaller`, a name as the grade gives it), as of the clock. */
  grade(onlyCaller?: string): ClientGrade {
    return gradeCallLog(this.#log, this.#log.clock.now(), onlyCaller);
  }
}
