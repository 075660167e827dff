/**
 * What the client rules read across one caller's requests (oldest first): which request retries which,
 * which repeats an earlier one unchanged, and the first read of a try-on after a sync call.
 */
import type { CallRecord } from './call-record.ts';

/** A start of a try-on, asynchronous or sync. */
export const isStart = (r: CallRecord): boolean => r.operation === 'createTryOn' || r.operation === 'createTryOnSync';
/** A failure the spec says to retry: 429, 500, 502, 503, or no answer (the client's timeout or a network failure). */
const retryableFailure = (r: CallRecord): boolean => r.dropped || [429, 500, 502, 503].includes(r.status ?? 0);
/**
 * What makes two requests "the same request" for retries: a start's body (whatever its key) or its
 * Idempotency-Key (a 429 is answered before the body is read), a read's path.
 */
const identities = (r: CallRecord): string[] => {
  if (isStart(r))
    return [
      r.bodyDigest && `${r.operation} body ${r.bodyDigest}`,
      r.idempotencyKey && `${r.operation} key ${r.idempotencyKey}`,
    ].filter((x): x is string => Boolean(x));
  return r.operation === 'getTryOn' ? [`GET ${r.path}`] : [];
};
/** How long the client waited between the end of one request and the start of the next. */
export const waited = (before: CallRecord, after: CallRecord): number =>
  after.startedAt - (before.endedAt ?? before.startedAt);

export interface Retry {
  readonly failed: CallRecord;
  readonly retry: CallRecord;
  /** 0 for the first retry after a success or a fresh request. */
  readonly n: number;
}

/** Every retry: a request whose previous same-identity request failed retryably. */
export function retriesOf(records: readonly CallRecord[]): Retry[] {
  const last = new Map<string, { record: CallRecord; n: number; at: number }>();
  const out: Retry[] = [];
  records.forEach((r, at) => {
    const ids = identities(r);
    if (ids.length === 0) return;
    // The latest earlier request with any of the same identities is the one this may repeat.
    const prev = ids
      .map((id) => last.get(id))
      .reduce<{ record: CallRecord; n: number; at: number } | undefined>(
        (a, b) => (b && (!a || b.at > a.at) ? b : a),
        undefined,
      );
    let n = 0;
    if (prev && retryableFailure(prev.record)) {
      out.push({ failed: prev.record, retry: r, n: prev.n });
      n = prev.n + 1;
    }
    for (const id of ids) last.set(id, { record: r, n, at });
  });
  return out;
}

/**
 * For each request, the later requests that are the same one with the same answer (method, path, body,
 * Idempotency-Key, status, code): how many, and the first four. One pass over `records` (oldest first).
 */
export function laterSame(records: readonly CallRecord[]): (r: CallRecord) => { count: number; first: CallRecord[] } {
  const groups = new Map<string, CallRecord[]>();
  const position = new Map<CallRecord, { group: CallRecord[]; at: number }>();
  for (const r of records) {
    const same = [r.method, r.path, r.bodyDigest ?? null, r.idempotencyKey ?? null, r.status ?? null, r.code ?? null];
    const key = JSON.stringify(same);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    position.set(r, { group, at: group.length });
    group.push(r);
  }
  return (r) => {
    const p = position.get(r);
    if (!p) return { count: 0, first: [] };
    return { count: p.group.length - p.at - 1, first: p.group.slice(p.at + 1, p.at + 5) };
  };
}

/** For each sync start, the first later read of its try-on. One pass over `records` (oldest first), from the end. */
export function firstPollAfter(records: readonly CallRecord[]): Map<CallRecord, CallRecord> {
  const next = new Map<string, CallRecord>();
  const out = new Map<CallRecord, CallRecord>();
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if (r === undefined || r.tryOnId === undefined) continue;
    if (r.operation === 'createTryOnSync') {
      const poll = next.get(r.tryOnId);
      if (poll) out.set(r, poll);
    } else if (r.operation === 'getTryOn') next.set(r.tryOnId, r);
  }
  return out;
}
