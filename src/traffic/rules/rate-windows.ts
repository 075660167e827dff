/**
 * The per-minute limits as traffic shows them, per account (spec: Limits, "12 per minute per
 * account", 60 polls, 30 uploads): requests a limit let through (starts that made a new try-on,
 * polls answered 200 or 404, "60 requests per minute", uploads answered 200) counted, on the
 * server's clock as its answers show it (server-clock.ts), against the limit judged: the documented
 * one, or one the user declared with --limits; limits test control set for an account are that
 * account's from the call's answer on (for an account no control answer tied to its keys, they widen
 * every account's). Breaking it takes more than the limit in a minute that no rolling or fixed window
 * explains (window-schemes.ts); more than the limit within a minute that a fixed window explains is
 * recorded. A breach by several keys of one account breaks "per account": the window was kept per
 * key. Only bursts of limit + 1 within a minute judge it, so traffic that never came near a limit
 * leaves it not exercised.
 */
import { finding } from '../../checks/finding.ts';
import { rateWindowMs, type RateBucket } from '../../contract/rate-limits.ts';
import type { RequirementId } from '../../contract/requirements.ts';
import { CappedMap } from '../capped-map.ts';
import { startedTryOn, type TrafficView } from '../traffic-view.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';
import { PlacedRing } from './placed-ring.ts';
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
  /** The latest limit + 1 requests let through: their times (the server's) and key digests. */
  readonly ring: PlacedRing;
  phases: Phases;
  /** Ids of the latest starts, so a replay of a try-on is not counted as a start. */
  readonly ids: Set<string>;
}

/** What one exchange counts against, if it was let through. */
function bucketOf(v: TrafficView): RateBucket | undefined {
  if (startedTryOn(v) !== undefined) return 'starts';
  // GET /tryons/{id}: "Rate limit: 60 requests per minute per account", read or not found alike.
  if (v.op === 'getTryOn' && (v.status === 200 || v.status === 404)) return 'polls';
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
  const { clock } = setup;
  let epoch = clock.epoch;
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
      // Windows count on the server's clock: a move that did not say the time makes earlier counts moot.
      if (clock.epoch !== epoch) {
        epoch = clock.epoch;
        windows.clear();
        schemes.reset();
      }
      if (call.kind === 'made') schemes.made(call.key, clock.place(startedAt, at));
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
        ring: new PlacedRing(),
        phases: allPhases(rateWindowMs),
        ids: new Set(),
      }));
      if (bucket === 'starts') {
        const id = startedTryOn(v)?.id ?? '';
        if (w.ids.has(id)) return;
        w.ids.add(id);
        if (w.ids.size > 2 * maxJudgedLimit) w.ids.delete(w.ids.values().next().value as string);
      }
      w.ring.push(clock.place(v.te.startedAt, v.te.endedAt), v.key, limit + 1);
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
  const { from, to, half, segment } = w.ring.span();
  // Within a minute however far off the clock's offsets are.
  if (to - from + 2 * half >= rateWindowMs) return;
  const keys = w.ring.keys();
  const id = keys > 1 ? 'LIMIT-RATES-PER-ACCOUNT' : requirementOf[bucket];
  const seconds = ((to - from) / 1000).toFixed(1);
  const [explained, own] = schemes.explains(bucket, v.te.account, { from, to, segment, half }, w.phases);
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
  w.ring.clear();
  w.phases = allPhases(rateWindowMs);
}
