/**
 * The per-minute limits as traffic shows them, per account (spec: Limits, "12 per minute per
 * account", 60 polls, 30 uploads): requests a limit let through — starts that made a new try-on,
 * polls and uploads answered 200 — counted against the limit judged (the documented one, or one the
 * user declared with --limits; a test-control call that set an account's limits sets them for that
 * account, counted afresh from the call's answer, or widens them for every account when no control
 * answer tied that account to its keys). Breaking it takes more than the limit in
 * a minute that no rolling or fixed window explains (window-schemes.ts); more than the limit within a
 * minute that a fixed window explains is recorded. A breach by requests of several keys of one
 * account is one of "per account": the window was kept per key. Only bursts of limit + 1 within a minute judge it,
 * so traffic that never came near a limit leaves it not exercised.
 */
import { finding } from '../../checks/finding.ts';
import { rateWindowMs, type RateBucket } from '../../contract/rate-limits.ts';
import type { RequirementId } from '../../contract/requirements.ts';
import { CappedMap } from '../capped-map.ts';
import { startedTryOn, type TrafficView } from '../traffic-view.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';
import { allPhases, type Phases } from './window-phases.ts';
import { WindowSchemes } from './window-schemes.ts';

const family = 'rate limits';

const requirementOf: Readonly<Record<RateBucket, RequirementId>> = {
  starts: 'LIMIT-STARTS-12-PER-MINUTE',
  polls: 'LIMIT-POLLS-60-PER-MINUTE',
  uploads: 'LIMIT-UPLOADS-30-PER-MINUTE',
};

/** The largest limit followed: a ring of limit + 1 requests per account and bucket is kept. */
export const maxJudgedLimit = 1_000;

interface Window {
  /** The latest limit + 1 requests let through, oldest first: their times and key digests only. */
  readonly ring: Array<{ readonly startedAt: number; readonly endedAt: number; readonly key: string }>;
  phases: Phases;
  /** Ids of the latest starts, so a replay of a try-on is not counted as a start. */
  readonly ids: Set<string>;
}

/** What one exchange counts against, if it was let through. */
function bucketOf(v: TrafficView): RateBucket | undefined {
  if (startedTryOn(v) !== undefined) return 'starts';
  if (v.op === 'getTryOn' && v.status === 200) return 'polls';
  if (v.op === 'uploadImage' && v.status === 200) return 'uploads';
  return undefined;
}

export function rateWindows(setup: RuleSetup): PassiveRule {
  const { ledger, caps } = setup;
  const raised: Partial<Record<RateBucket, number>> = {};
  /** Limits test control set for one account, and when its answer ended (requests begun before are not counted). */
  const own = new CappedMap<string, { perMinute: Partial<Record<RateBucket, number>>; since: number }>(caps.accounts);
  const windows = new CappedMap<string, Window>(caps.accounts * 3);
  const schemes = new WindowSchemes(caps.accounts);
  for (const [bucket, id] of Object.entries(requirementOf))
    ledger.declare(family, id, `more than the ${bucket} limit of one account within a minute`);
  const limitOf = (bucket: RateBucket, account: string): number | undefined => {
    if (setup.limits === 'none') return undefined;
    const limit = own.get(account)?.perMinute[bucket] ?? Math.max(setup.limits[bucket], raised[bucket] ?? 0);
    return limit <= maxJudgedLimit ? limit : undefined;
  };
  return {
    family,
    notKept: () => windows.evicted + own.evicted,
    control(call, at, startedAt) {
      // A moved clock puts the server's windows anywhere: what was counted before says nothing more.
      if (call.kind === 'clock') {
        windows.clear();
        schemes.clockMoved(call.now, startedAt, at);
      }
      if (call.kind === 'made') schemes.made(call.key, startedAt);
      if (call.kind !== 'limits') return;
      const account = setup.keys.accountNamed(call.accountId);
      if (account !== undefined) {
        own.set(account, { perMinute: { ...own.get(account)?.perMinute, ...call.perMinute }, since: at });
        for (const bucket of Object.keys(requirementOf)) windows.delete(`${bucket} ${account}`);
        return;
      }
      for (const [bucket, n] of Object.entries(call.perMinute) as Array<[RateBucket, number]>)
        raised[bucket] = Math.max(raised[bucket] ?? 0, n);
    },
    observe(v) {
      const bucket = bucketOf(v);
      if (bucket === undefined || v.te.account === 'none') return;
      if (v.te.startedAt < (own.get(v.te.account)?.since ?? 0)) return;
      const limit = limitOf(bucket, v.te.account);
      if (limit === undefined) return;
      const w = windows.getOrMake(`${bucket} ${v.te.account}`, () => ({
        ring: [],
        phases: allPhases(rateWindowMs),
        ids: new Set(),
      }));
      if (bucket === 'starts') {
        const id = startedTryOn(v)?.id ?? '';
        if (w.ids.has(id)) return;
        w.ids.add(id);
        if (w.ids.size > 2 * maxJudgedLimit) w.ids.delete(w.ids.values().next().value as string);
      }
      w.ring.push({ startedAt: v.te.startedAt, endedAt: v.te.endedAt, key: v.key });
      while (w.ring.length > limit + 1) w.ring.shift();
      if (w.ring.length <= limit) return;
      judgeBurst(setup, schemes, bucket, limit, w, v);
    },
  };
}

/** Judges the latest limit + 1 requests let through, when they fell certainly within a minute. */
function judgeBurst(
  setup: RuleSetup,
  schemes: WindowSchemes,
  bucket: RateBucket,
  limit: number,
  w: Window,
  v: TrafficView,
): void {
  const from = Math.min(...w.ring.map((te) => te.startedAt));
  const to = Math.max(...w.ring.map((te) => te.endedAt));
  if (to - from >= rateWindowMs) return;
  const keys = new Set(w.ring.map((te) => te.key)).size;
  const id = keys > 1 ? 'LIMIT-RATES-PER-ACCOUNT' : requirementOf[bucket];
  const seconds = ((to - from) / 1000).toFixed(1);
  const [explained, own] = schemes.explains(bucket, v.te.account, from, to, w.phases);
  w.phases = own;
  if (explained) {
    setup.ledger.judged(family, id, v.te);
    setup.ledger.note(
      family,
      id,
      `${limit + 1} ${bucket} of one account let through within ${seconds} s: ` +
        'a fixed window crossing its boundary may do that',
    );
    return;
  }
  setup.ledger.found(
    family,
    finding(
      'rate_window',
      id,
      `More than ${limit} ${bucket} of one account let through in a minute`,
      `${limit + 1} ${bucket} within ${seconds} s${keys > 1 ? ` under ${keys} keys of the account` : ''}, ` +
        'which no rolling or fixed one-minute window allows',
      `at most ${limit} per minute per account`,
      v.exchange.seq,
    ),
    [v.te],
  );
  // Judge afresh from here, so one breach is one finding.
  w.ring.length = 0;
  w.phases = allPhases(rateWindowMs);
}
