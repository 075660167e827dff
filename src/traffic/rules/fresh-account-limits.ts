/**
 * Limits are per account (spec: Limits, "12 per minute per account"; "60 per minute per account";
 * "30 uploads per minute per account"): an account test control made in the traffic, whose first
 * request of a bucket is answered 429, was limited by what other accounts did, for nothing of its own
 * can have filled its window. Judged once the traffic is over, and only when no other request of that
 * account and bucket began before the 429 ended (one still in flight may have been counted first),
 * nor test control set that bucket's limit of the account to 0. Accounts the traffic did not see made
 * are not judged: their windows may hold requests the proxy never saw.
 */
import { finding } from '../../checks/finding.ts';
import type { RateBucket } from '../../contract/rate-limits.ts';
import { CappedMap } from '../capped-map.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';
import type { TrafficView } from '../traffic-view.ts';
import { bucketOf } from './rate-buckets.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'rate limits';

interface Bucket {
  /** The first request of the bucket answered 429, while no other had been seen. */
  first429?: TrafficExchange;
  /** Another request of the bucket began before that 429 ended. */
  overlapped: boolean;
  zeroLimit: boolean;
}

export function freshAccountLimits(setup: RuleSetup): PassiveRule & { finish(): void } {
  const { ledger, caps, keys } = setup;
  /** Per account made in the traffic: its buckets, once one of its requests was seen. */
  const fresh = new CappedMap<string, Map<RateBucket, Bucket>>(caps.accounts);
  ledger.declare(family, 'LIMIT-RATES-PER-ACCOUNT', 'the first request of an account test control made');
  const seen = (account: string, bucket: RateBucket | undefined, te: TrafficExchange): Bucket | undefined => {
    const buckets = bucket === undefined ? undefined : fresh.get(account);
    if (buckets === undefined || bucket === undefined) return undefined;
    const b = buckets.get(bucket);
    if (b?.first429 !== undefined && te !== b.first429 && te.startedAt < b.first429.endedAt) b.overlapped = true;
    return b;
  };
  return {
    family,
    notKept: () => fresh.evicted,
    control(call) {
      if (call.kind === 'made') fresh.set(call.key, new Map());
      if (call.kind !== 'limits') return;
      const account = keys.accountNamed(call.accountId);
      const buckets = account === undefined ? undefined : fresh.get(account);
      for (const [bucket, n] of Object.entries(call.perMinute) as Array<[RateBucket, number]>) {
        if (buckets === undefined || n >= 1) continue;
        const b = buckets.get(bucket) ?? { overlapped: false, zeroLimit: false };
        b.zeroLimit = true;
        buckets.set(bucket, b);
      }
    },
    unanswered(te, request) {
      const bucket = bucketOf(request.op);
      const b = seen(te.account, bucket, te);
      if (b === undefined && bucket !== undefined)
        fresh.get(te.account)?.set(bucket, { overlapped: false, zeroLimit: false });
    },
    observe(v: TrafficView) {
      const bucket = bucketOf(v.op);
      const buckets = bucket === undefined ? undefined : fresh.get(v.te.account);
      if (bucket === undefined || buckets === undefined) return;
      const b = seen(v.te.account, bucket, v.te);
      if (b !== undefined) return;
      const first = { overlapped: false, zeroLimit: false };
      buckets.set(bucket, v.status === 429 ? { ...first, first429: v.te } : first);
      if (v.status !== 429) ledger.judged(family, 'LIMIT-RATES-PER-ACCOUNT', v.te);
    },
    finish() {
      for (const buckets of fresh.values())
        for (const [bucket, b] of buckets) {
          if (b.first429 === undefined || b.overlapped || b.zeroLimit) continue;
          ledger.found(
            family,
            finding(
              'rate_window',
              'LIMIT-RATES-PER-ACCOUNT',
              `A fresh account's first ${bucket} request was refused 429`,
              `429 with nothing of the account's own in its window`,
              '"12 per minute per account": only the account\'s own requests fill its window',
              b.first429.exchange.seq,
            ),
            [b.first429],
          );
          // Found once: a later report of the same traffic does not count it again.
          delete b.first429;
        }
    },
  };
}
