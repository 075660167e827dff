/**
 * Balances the client reads (GET /account) against the try-ons between two reads, per account:
 * "Pricing: 1 credit per finished try-on. A try-on that fails, or cannot be started, is refunded
 * automatically. Uploading is free." and "Reusing an Idempotency-Key returns the earlier try-on
 * instead of starting or charging again." Judged only where the traffic between the two reads is
 * fully seen: every start answered whole and known (a try-on, or a 4xx that made none), every try-on
 * final before the second read, no start overlapping either read, no test-control change of credits
 * in between; and only once nothing begun before the second read can still be in flight (settleMs
 * later, or at the end). Anything less is not judged. A new key test control gave the account between
 * the reads adds nothing: "Its first API key adds 20 free credits, once per account."
 */
import { finding } from '../../checks/finding.ts';
import type { RequirementId } from '../../contract/requirements.ts';
import { detectBalance, parseBalancePath, valueAt } from '../../suite/account-balance.ts';
import { CappedMap } from '../capped-map.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';
import { refusedStart, slim, startedTryOn, type TrafficView } from '../traffic-view.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'balances';

/** How long after a read a request begun before it may still end: past the sync wait (about 55 s). */
export const settleMs = 90_000;

interface Counts {
  successes: number;
  failures: number;
  replays: number;
  uploads: number;
  /** Starts refused with a 4xx: "a refused create makes none". */
  refused: number;
  /** Starts answered 502 START_FAILED: "uses no credit and has no state". */
  notStarted: number;
  /** New keys test control gave the account: "20 free credits with the first key, once per account". */
  keys: number;
  unknown: boolean;
}

interface Read {
  readonly balance: number;
  readonly te: TrafficExchange;
}

interface Interval extends Counts {
  readonly from: Read;
  readonly to: Read;
}

interface AccountBooks {
  baseline?: Read;
  open: Counts;
  /** Try-ons started and not yet seen final: their charge or refund is still to come. */
  readonly pending: Set<string>;
  readonly waiting: Interval[];
}

const fresh = (unknown = false): Counts => ({
  successes: 0,
  failures: 0,
  replays: 0,
  uploads: 0,
  refused: 0,
  notStarted: 0,
  keys: 0,
  unknown,
});

/** The balance of one GET /account answer: at `--balance-path`, or where detectBalance finds it. */
function balanceOf(v: TrafficView, path: string | undefined): number | undefined {
  if (v.status !== 200 || !v.whole) return undefined;
  const json = v.exchange.response.json;
  const pointer = path ?? detectBalance(200, json).source?.pointer;
  const segments = pointer === undefined ? undefined : parseBalancePath(pointer);
  const value = segments === undefined ? undefined : valueAt(json, segments);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The account digest that started each try-on. Only the creating account can read a try-on, so a
 * digest that reads or replays one another digest started is the same account under a new key (a
 * rotation): their balances move together, and neither interval can be judged from one digest's traffic.
 */
type Owners = CappedMap<string, string>;

export function balances(setup: RuleSetup): PassiveRule {
  const { ledger, caps } = setup;
  const books = new CappedMap<string, AccountBooks>(caps.accounts);
  const owners: Owners = new CappedMap(caps.accounts * caps.tryOnsPerAccount);
  const unknown = (b: AccountBooks | undefined): void => {
    if (b === undefined) return;
    b.open.unknown = true;
    for (const w of b.waiting) w.unknown = true;
  };
  /** Whether `id` is this digest's own try-on; a try-on of another digest, or never seen started, blinds both. */
  const own = (b: AccountBooks, digest: string, id: string): boolean => {
    const owner = owners.get(id);
    if (owner === digest) return true;
    unknown(b);
    if (owner !== undefined) unknown(books.get(owner));
    return false;
  };
  const booksOf = (digest: string): AccountBooks =>
    books.getOrMake(digest, () => ({ open: fresh(true), pending: new Set(), waiting: [] }));
  for (const [id, needs] of declared) ledger.declare(family, id, needs);
  const settle = (b: AccountBooks, now: number | undefined): void => {
    while (b.waiting.length > 0 && (now === undefined || now >= (b.waiting[0]?.to.te.endedAt ?? 0) + settleMs))
      judgeInterval(setup, b.waiting.shift() as Interval);
  };
  const rule: PassiveRule & { finish(): void } = {
    family,
    notKept: () => books.evicted + owners.evicted,
    control(call) {
      if (call.kind === 'rotated') {
        const account = setup.keys.accountNamed(call.accountId);
        const b = account === undefined ? undefined : books.get(account);
        if (b !== undefined) b.open.keys += 1;
      }
      if (call.kind !== 'credits') return;
      // Credits set for an account the key book knows blind that account only; else every account.
      const account = setup.keys.accountNamed(call.accountId);
      if (account !== undefined) unknown(books.get(account));
      else for (const b of books.values()) unknown(b);
    },
    finish() {
      for (const b of books.values()) settle(b, undefined);
    },
    unanswered(te, request) {
      const start = request.op === 'createTryOn' || request.op === 'createTryOnSync';
      if (te.account === 'none' || (!start && request.op !== 'uploadImage')) return;
      const b = booksOf(te.account);
      settle(b, te.startedAt);
      // The server may have acted on it unseen: a start may have charged, and may finish or refund at
      // any later time, so it stays pending (unknown) for every later interval of this account.
      b.open.unknown = true;
      for (const w of b.waiting) if (te.startedAt < w.to.te.endedAt) w.unknown = true;
      if (start) b.pending.add(`unanswered start ${te.exchange.seq}`);
    },
    observe(v) {
      if (v.te.account === 'none') return;
      const b = booksOf(v.te.account);
      settle(b, v.te.startedAt);
      const start = v.op === 'createTryOn' || v.op === 'createTryOnSync';
      // A request begun before a read that ends after it may have moved the balance on either side.
      if ((start || v.op === 'uploadImage') && b.baseline !== undefined && v.te.startedAt < b.baseline.te.endedAt) {
        b.open.unknown = true;
        for (const w of b.waiting) if (v.te.startedAt < w.to.te.endedAt) w.unknown = true;
      }
      if (start) countStart(b, v, owners, own);
      else if (v.op === 'uploadImage' && v.status === 200 && v.whole) b.open.uploads += 1;
      else if (v.op === 'uploadImage' && (v.status >= 500 || !v.whole)) b.open.unknown = true;
      else if (v.op === 'getTryOn' && v.status === 200 && v.tryOn !== undefined) {
        if (own(b, v.te.account, v.tryOn.id)) finished(b, v);
      } else if (v.op === 'getAccount') read(b, v, balanceOf(v, setup.balancePath));
    },
  };
  return rule;
}

function countStart(
  b: AccountBooks,
  v: TrafficView,
  owners: Owners,
  own: (b: AccountBooks, digest: string, id: string) => boolean,
): void {
  const tryOn = startedTryOn(v);
  if (tryOn !== undefined && v.whole) {
    if (owners.get(tryOn.id) === undefined) {
      owners.set(tryOn.id, v.te.account);
      b.pending.add(tryOn.id);
    } else if (own(b, v.te.account, tryOn.id)) b.open.replays += 1;
    finished(b, v);
  } else if (refusedStart(v) && v.whole) b.open.refused += 1;
  else if (v.status === 502 && (v.exchange.response.json as { code?: unknown } | undefined)?.code === 'START_FAILED')
    b.open.notStarted += 1;
  else b.open.unknown = true;
}

/** A sighting of a try-on in a final state settles its charge. */
function finished(b: AccountBooks, v: TrafficView): void {
  const tryOn = v.tryOn;
  if (tryOn === undefined || !b.pending.has(tryOn.id)) return;
  if (tryOn.status === 'success') b.open.successes += 1;
  else if (tryOn.status === 'failed') b.open.failures += 1;
  else return;
  b.pending.delete(tryOn.id);
}

function read(b: AccountBooks, v: TrafficView, balance: number | undefined): void {
  if (balance === undefined) {
    b.open.unknown = true;
    return;
  }
  const to: Read = { balance, te: slim(v.te) };
  const unknown = b.open.unknown || b.pending.size > 0;
  if (b.baseline !== undefined && !unknown && b.waiting.length < 20)
    b.waiting.push({ ...b.open, unknown, from: b.baseline, to });
  b.baseline = to;
  // A try-on still pending at this read will charge or refund later: the next interval cannot be known.
  b.open = fresh(b.pending.size > 0);
  if (b.pending.size > 100) b.pending.clear();
}

const declared: ReadonlyArray<readonly [RequirementId, string]> = [
  ['SVC-ONE-CREDIT-PER-FINISHED-TRYON', 'two balance reads with a try-on finished as success between them'],
  ['SVC-FAILED-TRYON-REFUNDED', 'two balance reads with a try-on finished as failed between them'],
  ['CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE', 'two balance reads with an idempotent replay between them'],
  ['UPLOAD-FREE', 'two balance reads with an upload between them'],
  ['STATE-CREATE-STARTS-PENDING', 'two balance reads with a refused start between them'],
  ['STATE-NOT-STARTED-NO-CREDIT-NO-STATE', 'two balance reads with a 502 START_FAILED between them'],
  ['ACCOUNT-FREE-CREDITS-ONCE', 'two balance reads of one account with a new key given between them'],
];

/**
 * The rule a missed balance breaks: the one kind of traffic whose count explains the difference
 * exactly (failures that kept their credit, replays or uploads charged); else, or when several
 * would, the price of a finished try-on.
 */
function blameOf(w: Interval, delta: number, expected: number): RequirementId {
  const explained: RequirementId[] = [
    ...(w.failures > 0 && delta === expected - w.failures ? (['SVC-FAILED-TRYON-REFUNDED'] as const) : []),
    ...(w.replays > 0 && delta === expected - w.replays ? (['CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'] as const) : []),
    ...(w.uploads > 0 && delta === expected - w.uploads ? (['UPLOAD-FREE'] as const) : []),
    ...(w.refused > 0 && delta === expected - w.refused ? (['STATE-CREATE-STARTS-PENDING'] as const) : []),
    ...(w.notStarted > 0 && delta === expected - w.notStarted
      ? (['STATE-NOT-STARTED-NO-CREDIT-NO-STATE'] as const)
      : []),
  ];
  // Nothing between two reads adds credits but a refund, which is counted in `expected` already.
  if (w.keys > 0 && delta > expected) return 'ACCOUNT-FREE-CREDITS-ONCE';
  return explained.length === 1 && explained[0] !== undefined ? explained[0] : 'SVC-ONE-CREDIT-PER-FINISHED-TRYON';
}

/**
 * Judges one fully seen interval: the balance must move by minus the try-ons finished as success.
 * A miss is put on the rule whose traffic explains it (`blameOf`).
 */
function judgeInterval(setup: RuleSetup, w: Interval): void {
  if (w.unknown) return;
  const { ledger } = setup;
  const involved: RequirementId[] = [
    ...(w.successes > 0 ? (['SVC-ONE-CREDIT-PER-FINISHED-TRYON'] as const) : []),
    ...(w.failures > 0 ? (['SVC-FAILED-TRYON-REFUNDED'] as const) : []),
    ...(w.replays > 0 ? (['CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'] as const) : []),
    ...(w.uploads > 0 ? (['UPLOAD-FREE'] as const) : []),
    ...(w.refused > 0 ? (['STATE-CREATE-STARTS-PENDING'] as const) : []),
    ...(w.notStarted > 0 ? (['STATE-NOT-STARTED-NO-CREDIT-NO-STATE'] as const) : []),
    ...(w.keys > 0 ? (['ACCOUNT-FREE-CREDITS-ONCE'] as const) : []),
  ];
  const expected = -w.successes;
  const delta = w.to.balance - w.from.balance;
  if (involved.length === 0) {
    if (delta !== 0)
      ledger.note(
        family,
        'ACCOUNT-OWN-CREDIT-BALANCE',
        `A balance moved by ${delta} with no start or upload between reads`,
      );
    return;
  }
  if (delta === expected) {
    for (const id of involved) ledger.judged(family, id, w.to.te);
    return;
  }
  const blamed = blameOf(w, delta, expected);
  const what =
    `${w.successes} success, ${w.failures} failed, ${w.replays} replays, ${w.uploads} uploads, ` +
    `${w.refused + w.notStarted} refused starts, ${w.keys} new keys between the reads`;
  ledger.found(
    family,
    finding(
      'balance',
      blamed,
      'A balance moved otherwise than the try-ons between two reads',
      `${w.from.balance} → ${w.to.balance} (${delta}) with ${what}`,
      `${expected}: "1 credit per finished try-on", refunded on failure, uploads free, ` +
        'a replay or a start not made not charged, free credits with the first key only',
      w.to.te.exchange.seq,
    ),
    [w.from.te, w.to.te],
  );
}
