/**
 * The client rules of the spec, each judged over one caller's requests as the sandbox saw them. One plain
 * function per requirement of the catalogue; each returns every occasion it could judge (a pass or a failure
 * with the requests as evidence). A rule that found no occasion is "not exercised", never a pass.
 */
import type { RequirementId } from '../contract/requirements.ts';
import type { CallRecord } from './call-record.ts';
import { firstPollAfter, isStart, laterSame, retriesOf, waited } from './call-sequences.ts';

export interface Occasion {
  readonly ok: boolean;
  /** One line: what happened. */
  readonly what: string;
  readonly evidence: readonly CallRecord[];
}

export interface RuleContext {
  /** The server's clock when the grade is made. */
  readonly now: number;
}

export interface ClientRule {
  readonly id: RequirementId;
  /** How the sandbox judges it, in one line (shown with the grade). */
  readonly judged: string;
  judge(records: readonly CallRecord[], ctx: RuleContext): Occasion[];
}

/** Slack for clocks and networks: a wait counts when it is at least this share of the required one. */
export const waitTolerance = 0.9;
/** Polling a still-pending try-on this long after its first poll is not "giving up after a few minutes". */
export const giveUpLimitMs = 10 * 60_000;
/** After a sync 202, a client has this long to start polling. */
export const pollAfter202Ms = 60_000;
/** More retries than this of one request is not "stop after a few attempts". */
export const maxRetries = 5;
const backoffMs = [1_000, 2_000, 4_000];
const refusals = new Set([400, 401, 402, 403, 413, 422]);

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const answerOf = (r: CallRecord): string =>
  r.dropped ? 'no answer (dropped by the client)' : `${r.status ?? '?'}${r.code ? ` ${r.code}` : ''}`;

export const clientRules: readonly ClientRule[] = [
  {
    id: 'ERR-CLIENT-RETRY-SAME-KEY',
    judged:
      'every retry of a start after 429, 500, 502, 503 or no answer carries the Idempotency-Key of the attempt it repeats (same body, same key)',
    judge: (records) =>
      retriesOf(records)
        .filter((r) => isStart(r.retry))
        .map(({ failed, retry }) => {
          const ok = retry.idempotencyKey === failed.idempotencyKey;
          return {
            ok,
            what: ok
              ? `retry of ${failed.operation} after ${answerOf(failed)} kept its Idempotency-Key`
              : `retry of ${failed.operation} after ${answerOf(failed)} came with a new Idempotency-Key: the same try-on could be started and charged twice`,
            evidence: [failed, retry],
          };
        }),
  },
  {
    id: 'ERR-CLIENT-NO-UNCHANGED-RETRY',
    judged:
      'after a 400, 401, 402, 403, 413 or 422, the same request (method, path, body, Idempotency-Key, key) is not sent again to meet the same refusal',
    judge: (records) => {
      const later = laterSame(records);
      return records
        .filter((r) => !r.dropped && refusals.has(r.status ?? 0))
        .map((refused) => {
          const repeats = later(refused);
          return repeats.count === 0
            ? {
                ok: true,
                what: `${refused.method} ${refused.path} refused with ${answerOf(refused)} was not repeated unchanged`,
                evidence: [refused],
              }
            : {
                ok: false,
                what: `${refused.method} ${refused.path} refused with ${answerOf(refused)} was sent again unchanged ${repeats.count} time(s)`,
                evidence: [refused, ...repeats.first],
              };
        });
    },
  },
  {
    id: 'ERR-CLIENT-BACKOFF-1-2-4',
    judged: `a retry after a failure without Retry-After waits at least 1, then 2, then 4 s (${Math.round(waitTolerance * 100)} % counts), and a request is retried at most ${maxRetries} times`,
    judge: (records) =>
      retriesOf(records)
        .filter(({ failed }) => failed.retryAfterSeconds === undefined)
        .map(({ failed, retry, n }) => {
          const want = backoffMs[Math.min(n, backoffMs.length - 1)] ?? 4_000;
          const gap = waited(failed, retry);
          if (n >= maxRetries)
            return {
              ok: false,
              what: `retry number ${n + 1} of one request: the spec says to stop after a few attempts`,
              evidence: [failed, retry],
            };
          const ok = gap >= want * waitTolerance;
          return {
            ok,
            what: `retry ${n + 1} after ${answerOf(failed)} waited ${seconds(gap)}${ok ? '' : `, less than the ${seconds(want)} of the spec's backoff`}`,
            evidence: [failed, retry],
          };
        }),
  },
  {
    id: 'ERR-CLIENT-HONOURS-RETRY-AFTER',
    judged: `a retry after an answer with Retry-After waits that long (${Math.round(waitTolerance * 100)} % counts)`,
    judge: (records) =>
      retriesOf(records)
        .filter(({ failed }) => failed.retryAfterSeconds !== undefined)
        .map(({ failed, retry }) => {
          const want = (failed.retryAfterSeconds ?? 0) * 1000;
          const gap = waited(failed, retry);
          const ok = gap >= want * waitTolerance;
          return {
            ok,
            what: `retry after ${answerOf(failed)} with Retry-After ${failed.retryAfterSeconds} came after ${seconds(gap)}${ok ? '' : ', before Retry-After had passed'}`,
            evidence: [failed, retry],
          };
        }),
  },
  {
    id: 'GET-POLL-EVERY-2-3-SECONDS',
    judged: `a read of a try-on that last read as pending comes at least 2 s after that read (${Math.round(waitTolerance * 100)} % counts)`,
    judge: (records) => {
      const out: Occasion[] = [];
      const last = new Map<string, CallRecord>();
      for (const r of records.filter((x) => x.operation === 'getTryOn' && x.tryOnId !== undefined)) {
        const prev = last.get(r.tryOnId ?? '');
        if (prev && prev.status === 200 && prev.tryOnStatus === 'pending') {
          const gap = waited(prev, r);
          const ok = gap >= 2_000 * waitTolerance;
          out.push({
            ok,
            what: `poll of ${r.tryOnId} ${seconds(gap)} after the last one${ok ? '' : ': faster than every 2 s'}`,
            evidence: [prev, r],
          });
        }
        last.set(r.tryOnId ?? '', r);
      }
      return out;
    },
  },
  {
    id: 'GET-POLL-GIVE-UP-AFTER-MINUTES',
    judged: `a try-on that reads as pending is not polled more than ${giveUpLimitMs / 60_000} minutes after its first poll; judged once that time has passed`,
    judge: (records, ctx) => {
      const polls = new Map<string, CallRecord[]>();
      for (const r of records) {
        if (r.operation !== 'getTryOn' || r.tryOnId === undefined || r.status !== 200) continue;
        const list = polls.get(r.tryOnId);
        if (list) list.push(r);
        else polls.set(r.tryOnId, [r]);
      }
      return [...polls.entries()].flatMap(([id, list]): Occasion[] => {
        const first = list[0];
        if (!first || list.some((p) => p.tryOnStatus !== 'pending')) return [];
        const limit = first.startedAt + giveUpLimitMs;
        const late = list.filter((p) => p.startedAt > limit);
        if (late.length > 0)
          return [
            {
              ok: false,
              what: `try-on ${id} was still polled ${seconds((late.at(-1)?.startedAt ?? 0) - first.startedAt)} after its first poll: it never gave up`,
              evidence: [first, ...late.slice(-3)],
            },
          ];
        if (ctx.now < limit) return [];
        return [
          {
            ok: true,
            what: `try-on ${id} stayed pending and its polling stopped within ${giveUpLimitMs / 60_000} minutes`,
            evidence: [first, list.at(-1) ?? first],
          },
        ];
      });
    },
  },
  {
    id: 'SYNC-CLIENT-TIMEOUT-70-SECONDS',
    judged:
      'a sync call is not dropped before 70 s (a dropped one fails); one held until the wait ended and answered 202 passes',
    judge: (records) =>
      records
        .filter((r) => r.operation === 'createTryOnSync' && (r.dropped || r.status === 202))
        .map((r) => {
          const held = (r.endedAt ?? r.startedAt) - r.startedAt;
          if (!r.dropped)
            return {
              ok: true,
              what: `sync call held for the whole wait (${seconds(held)}) and answered 202`,
              evidence: [r],
            };
          return held >= 70_000
            ? { ok: true, what: `sync call dropped after ${seconds(held)}, not before 70 s`, evidence: [r] }
            : {
                ok: false,
                what: `sync call dropped by the client after ${seconds(held)}, before the wait was over (client timeout under 70 s)`,
                evidence: [r],
              };
        }),
  },
  {
    id: 'SYNC-CLIENT-HANDLES-200-AND-202',
    judged: `after a sync 202, the client reads the try-on (GET pollUrl) within ${pollAfter202Ms / 1000} s`,
    judge: (records, ctx) => {
      const pollAfter = firstPollAfter(records);
      return records
        .filter((r) => r.operation === 'createTryOnSync' && !r.dropped && r.status === 202 && r.tryOnId !== undefined)
        .flatMap((r): Occasion[] => {
          const end = r.endedAt ?? r.startedAt;
          const poll = pollAfter.get(r);
          if (poll && poll.startedAt - end <= pollAfter202Ms)
            return [
              {
                ok: true,
                what: `polled ${r.tryOnId} ${seconds(poll.startedAt - end)} after the 202`,
                evidence: [r, poll],
              },
            ];
          if (!poll && ctx.now - end < pollAfter202Ms) return [];
          return [
            {
              ok: false,
              what: `no read of ${r.tryOnId} within ${pollAfter202Ms / 1000} s after the sync 202`,
              evidence: poll ? [r, poll] : [r],
            },
          ];
        });
    },
  },
  {
    id: 'AUTH-KEY-SERVER-SIDE-ONLY',
    judged:
      'no request carries signs of a browser: an Origin, Sec-Fetch-Site or Sec-Fetch-Dest header, or a CORS preflight',
    judge: (records) => {
      const signed = records.filter((r) => r.browserSigns.length > 0);
      if (records.length === 0) return [];
      if (signed.length === 0)
        return [{ ok: true, what: `${records.length} request(s), none with signs of a browser`, evidence: [] }];
      return signed.slice(0, 5).map((r) => ({
        ok: false,
        what: `request with signs of a browser (${r.browserSigns.join(', ')}): the key must never reach one`,
        evidence: [r],
      }));
    },
  },
];
