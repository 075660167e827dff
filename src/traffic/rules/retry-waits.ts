/**
 * Retry-After as a client that obeys it sees it (spec: Limits, "Over a rate limit the response is 429
 * `RATE_LIMITED` with a `Retry-After` header in seconds"; Errors, "429 | RATE_LIMITED | too many
 * requests | wait `Retry-After` seconds", rule 4 "when `Retry-After` is present, wait that long
 * instead"). After a 429 saying N seconds, the account's next request of that bucket begun N seconds
 * later (real time plus test control's clock moves in between) must be let through, when nothing
 * between could have filled the window again: no other request of that account (which requests a
 * window counts is the target's), none dropped, no limits set for it. Let through, it passes;
 * refused 429 again, it fails.
 */
import { finding } from '../../checks/finding.ts';
import { CappedMap } from '../capped-map.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';
import type { TrafficView } from '../traffic-view.ts';
import { bucketOf } from './rate-buckets.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'rate limits';
const buckets = ['starts', 'polls', 'uploads'] as const;

interface Waiting {
  readonly te: TrafficExchange;
  readonly seconds: number;
  /** Test control's clock moves since the 429 (ms). */
  advancedMs: number;
  /** Something since may have filled the window again. */
  blocked: boolean;
}

/** Retry-After in seconds, as the spec words it: a non-negative integer. */
function retryAfterOf(v: TrafficView): number | undefined {
  const raw = v.exchange.response.headers['retry-after']?.trim();
  return raw !== undefined && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
}

export function retryWaits(setup: RuleSetup): PassiveRule {
  const { ledger, caps, keys } = setup;
  const waiting = new CappedMap<string, Waiting>(caps.accounts * 3);
  ledger.declare(family, 'LIMIT-429-RETRY-AFTER', 'a 429 with Retry-After and a request of that bucket after the wait');
  return {
    family,
    notKept: () => waiting.evicted,
    control(call) {
      if (call.kind === 'clock') for (const w of waiting.values()) w.advancedMs += (call.seconds ?? 0) * 1000;
      if (call.kind !== 'limits') return;
      const account = keys.accountNamed(call.accountId);
      for (const bucket of buckets)
        if (account !== undefined) waiting.delete(`${bucket} ${account}`);
        else for (const w of waiting.values()) w.blocked = true;
    },
    unanswered(te) {
      for (const bucket of buckets) {
        const w = waiting.get(`${bucket} ${te.account}`);
        if (w !== undefined) w.blocked = true;
      }
    },
    observe(v) {
      if (v.te.account === 'none') return;
      const bucket = bucketOf(v.op);
      // A request of another kind may count in the window too.
      for (const other of buckets) {
        const w = other === bucket ? undefined : waiting.get(`${other} ${v.te.account}`);
        if (w !== undefined) w.blocked = true;
      }
      if (bucket === undefined) return;
      const slot = `${bucket} ${v.te.account}`;
      const w = waiting.get(slot);
      const seconds = v.status === 429 ? retryAfterOf(v) : undefined;
      const wait = (): void => {
        if (seconds === undefined) waiting.delete(slot);
        else waiting.set(slot, { te: v.te, seconds, advancedMs: 0, blocked: false });
      };
      if (w === undefined) return v.status === 429 ? wait() : undefined;
      if (v.te.startedAt < w.te.endedAt) {
        // Begun while the 429 was on its way: let through, it may have taken the room the wait counted on.
        if (v.status !== 429) w.blocked = true;
        return;
      }
      const waited = v.te.startedAt - w.te.endedAt + w.advancedMs >= w.seconds * 1000;
      if (v.status !== 429) {
        if (waited && !w.blocked && v.status >= 200 && v.status < 300)
          ledger.judged(family, 'LIMIT-429-RETRY-AFTER', v.te);
        if (v.status >= 200 && v.status < 300) waiting.delete(slot);
        else w.blocked = true;
        return;
      }
      if (waited && !w.blocked)
        ledger.found(
          family,
          finding(
            'retry_after',
            'LIMIT-429-RETRY-AFTER',
            `A ${bucket} request sent after waiting Retry-After was refused again`,
            `429 after Retry-After: ${w.seconds} and ` +
              `${((v.te.startedAt - w.te.endedAt + w.advancedMs) / 1000).toFixed(1)} s (test clock moves included)`,
            'let through: "wait `Retry-After` seconds", with nothing of the account\'s sent between',
            v.exchange.seq,
          ),
          [w.te, v.te],
        );
      wait();
    },
  };
}
