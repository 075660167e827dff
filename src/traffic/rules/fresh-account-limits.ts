/**
 * Limits are per account (spec: Limits, "12 per minute per account"; "60 per minute per account";
 * "30 uploads per minute per account"): an account test control made in the traffic whose very first
 * request (of any kind) is refused 429 was limited by what other accounts did, for nothing of its own
 * can have filled any window. Judged once the traffic is over, and only when no other request of the
 * account began before that 429 ended (one still in flight may have been counted first), nor test
 * control set a limit of the account to 0. Accounts the traffic did not see made are not judged:
 * their windows may hold requests the proxy never saw.
 */
import { finding } from '../../checks/finding.ts';
import { CappedMap } from '../capped-map.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';
import type { TrafficView } from '../traffic-view.ts';
import { bucketOf } from './rate-buckets.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'rate limits';

interface Fresh {
  /** A request of the account was seen. */
  any: boolean;
  /** Its first request, refused 429. */
  first429?: TrafficExchange;
  /** Another request of the account began before that 429 ended. */
  overlapped: boolean;
  zeroLimit: boolean;
}

export function freshAccountLimits(setup: RuleSetup): PassiveRule & { finish(): void } {
  const { ledger, caps, keys } = setup;
  const fresh = new CappedMap<string, Fresh>(caps.accounts);
  ledger.declare(family, 'LIMIT-RATES-PER-ACCOUNT', 'the first request of an account test control made');
  /** Notes a request of `account`; the account's state when it was its first. */
  const seen = (account: string, te: TrafficExchange): Fresh | undefined => {
    const f = fresh.get(account);
    if (f === undefined) return undefined;
    if (f.first429 !== undefined && te !== f.first429 && te.startedAt < f.first429.endedAt) f.overlapped = true;
    if (f.any) return undefined;
    f.any = true;
    return f;
  };
  return {
    family,
    notKept: () => fresh.evicted,
    control(call) {
      if (call.kind === 'made') fresh.set(call.key, { any: false, overlapped: false, zeroLimit: false });
      if (call.kind !== 'limits') return;
      const account = keys.accountNamed(call.accountId);
      const f = account === undefined ? undefined : fresh.get(account);
      if (f !== undefined && Object.values(call.perMinute).some((n) => n < 1)) f.zeroLimit = true;
    },
    unanswered(te) {
      seen(te.account, te);
    },
    observe(v: TrafficView) {
      if (v.te.account === 'none') return;
      const first = seen(v.te.account, v.te);
      const bucket = bucketOf(v.op);
      if (first === undefined || bucket === undefined) return;
      if (v.status === 429) first.first429 = v.te;
      else ledger.judged(family, 'LIMIT-RATES-PER-ACCOUNT', v.te);
    },
    finish() {
      for (const f of fresh.values()) {
        if (f.first429 === undefined || f.overlapped || f.zeroLimit) continue;
        ledger.found(
          family,
          finding(
            'rate_window',
            'LIMIT-RATES-PER-ACCOUNT',
            "A fresh account's first request was refused 429",
            `429 to ${f.first429.exchange.request.method} with nothing of the account's own before it`,
            '"12 per minute per account": only the account\'s own requests fill its windows',
            f.first429.exchange.seq,
          ),
          [f.first429],
        );
        // Found once: a later report of the same traffic does not count it again.
        delete f.first429;
      }
    },
  };
}
