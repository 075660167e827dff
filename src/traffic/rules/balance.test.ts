import { describe, expect, it } from 'vitest';
import { balance, bob, fake, poll, start } from '../fake-traffic.ts';
import { creditsSet, digestOf, made, rotated } from './control-fakes.ts';
import { judgeTrace } from './judge-trace.ts';

const price = 'SVC-ONE-CREDIT-PER-FINISHED-TRYON';
const refund = 'SVC-FAILED-TRYON-REFUNDED';
const once = 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE';

const upload = (at: number) =>
  fake({
    method: 'POST',
    path: '/api/v1/images',
    status: 200,
    json: { id: 'img_1', expiresAt: '2026-11-28T00:00:00Z' },
    at,
  });

describe('balances', () => {
  it('one success between two reads costs one credit: passes; two: fails', () => {
    const trace = (after: number) => [
      balance(20, 0),
      start('ton_1', 'key-00000001', 1),
      poll('ton_1', 'success', 2),
      balance(after, 3),
    ];
    expect(judgeTrace(trace(19)).verdict(price)).toBe('pass');
    expect(judgeTrace(trace(18)).verdict(price)).toBe('fail');
  });

  it('a failed try-on gives its credit back: passes; keeps it: fails', () => {
    const trace = (after: number) => [
      balance(20, 0),
      start('ton_1', 'key-00000001', 1),
      poll('ton_1', 'failed', 2),
      balance(after, 3),
    ];
    expect(judgeTrace(trace(20)).verdict(refund)).toBe('pass');
    expect(judgeTrace(trace(19)).verdict(refund)).toBe('fail');
  });

  it('a replay between reads is not charged again: passes; charged: fails NO-DOUBLE-CHARGE', () => {
    const trace = (after: number) => [
      start('ton_1', 'key-00000001', 0),
      poll('ton_1', 'success', 1),
      balance(19, 2),
      start('ton_1', 'key-00000001', 3),
      balance(after, 4),
    ];
    expect(judgeTrace(trace(19)).verdict(once)).toBe('pass');
    expect(judgeTrace(trace(18)).verdict(once)).toBe('fail');
  });

  it('an upload between reads is free: passes; charged: fails UPLOAD-FREE', () => {
    expect(judgeTrace([balance(20, 0), upload(1), balance(20, 2)]).verdict('UPLOAD-FREE')).toBe('pass');
    expect(judgeTrace([balance(20, 0), upload(1), balance(19, 2)]).verdict('UPLOAD-FREE')).toBe('fail');
  });

  it('a start with an unknown outcome (a 500) leaves the interval unjudged', () => {
    const lost = fake({
      method: 'POST',
      path: '/api/v1/tryons',
      status: 500,
      json: { error: 'x', code: 'INTERNAL_ERROR' },
      at: 1,
    });
    const t = judgeTrace([
      balance(20, 0),
      lost,
      start('ton_1', 'key-00000001', 2),
      poll('ton_1', 'success', 3),
      balance(17, 4),
    ]);
    expect(t.verdict(price)).toBe('not-observable');
  });

  it('a start that overlaps a read leaves it unjudged', () => {
    const read = balance(19, 3);
    const straddling = { ...start('ton_2', 'key-00000002', 2.99), endedAt: read.endedAt + 5 };
    const t = judgeTrace([
      balance(20, 0),
      start('ton_1', 'key-00000001', 1),
      poll('ton_1', 'success', 2),
      read,
      straddling,
    ]);
    expect(t.verdict(price)).toBe('not-observable');
  });

  it('credits set through test control leave every open interval unjudged', () => {
    const set = fake({
      method: 'PUT',
      path: '/_control/accounts/acct_1/credits',
      status: 200,
      json: {},
      body: { credits: 5 },
      at: 2.5,
    });
    const t = judgeTrace([
      balance(20, 0),
      start('ton_1', 'key-00000001', 1),
      poll('ton_1', 'success', 2),
      set,
      balance(5, 3),
    ]);
    expect(t.verdict(price)).toBe('not-observable');
  });

  it('the balance is read where --balance-path says', () => {
    const read = (credits: number, at: number) =>
      fake({ path: '/api/v1/account', status: 200, json: { plan: 3, wallet: { amount: credits } }, at });
    const trace = [read(20, 0), start('ton_1', 'key-00000001', 1), poll('ton_1', 'success', 2), read(18, 3)];
    expect(judgeTrace(trace, { balancePath: '/wallet/amount' }).verdict(price)).toBe('fail');
    // Two numbers and none named like a balance: none is read.
    expect(judgeTrace(trace).verdict(price)).toBe('not-observable');
  });
});

describe('balances: one account under two keys', () => {
  it('a rotated key replaying and reading a try-on of the earlier key leaves its interval unjudged', () => {
    const t = judgeTrace([
      start('ton_1', 'key-00000001', 0),
      poll('ton_1', 'success', 1),
      balance(19, 2, bob),
      start('ton_1', 'key-00000001', 3, bob),
      poll('ton_1', 'success', 4, bob),
      balance(19, 5, bob),
    ]);
    expect(t.verdict(price)).not.toBe('fail');
    expect(t.verdict(once)).not.toBe('fail');
  });
});

describe('balances: the rule a miss is put on', () => {
  it('a success charged twice beside a replay is the price, not the replay', () => {
    const t = judgeTrace([
      balance(20, 0),
      start('ton_1', 'key-00000001', 1),
      start('ton_1', 'key-00000001', 1.5),
      poll('ton_1', 'success', 2),
      start('ton_2', 'key-00000002', 2.5),
      poll('ton_2', 'success', 3),
      balance(16, 4),
    ]);
    expect(t.verdict(price)).toBe('fail');
    expect(t.verdict(once)).not.toBe('fail');
  });

  it('a failure that kept its credit beside a success is the refund', () => {
    const t = judgeTrace([
      balance(20, 0),
      start('ton_1', 'key-00000001', 1),
      poll('ton_1', 'success', 2),
      start('ton_2', 'key-00000002', 2.5),
      poll('ton_2', 'failed', 3),
      balance(18, 4),
    ]);
    expect(t.verdict(refund)).toBe('fail');
    expect(t.verdict(price)).not.toBe('fail');
  });
});

describe('balances: starts that made nothing', () => {
  const refused = (at: number) =>
    fake({
      method: 'POST',
      path: '/api/v1/tryons',
      status: 403,
      json: { error: 'consent must be true.', code: 'CONSENT_REQUIRED' },
      at,
    });
  const startFailed = (at: number) =>
    fake({
      method: 'POST',
      path: '/api/v1/tryons',
      status: 502,
      json: { error: 'Could not start.', code: 'START_FAILED' },
      at,
    });

  it('a refused start costs nothing: passes; charged: fails STATE-CREATE-STARTS-PENDING', () => {
    expect(judgeTrace([balance(20, 0), refused(1), balance(20, 2)]).verdict('STATE-CREATE-STARTS-PENDING')).toBe(
      'pass',
    );
    expect(judgeTrace([balance(20, 0), refused(1), balance(19, 2)]).verdict('STATE-CREATE-STARTS-PENDING')).toBe(
      'fail',
    );
  });

  it('a 502 START_FAILED uses no credit: charged fails STATE-NOT-STARTED-NO-CREDIT-NO-STATE', () => {
    const id = 'STATE-NOT-STARTED-NO-CREDIT-NO-STATE';
    expect(judgeTrace([balance(20, 0), startFailed(1), balance(20, 2)]).verdict(id)).toBe('pass');
    expect(judgeTrace([balance(20, 0), startFailed(1), balance(19, 2)]).verdict(id)).toBe('fail');
  });
});

describe('balances: keys test control gives an account', () => {
  const first = digestOf('vto_live_first');
  const second = digestOf('vto_live_second');
  const trace = (after: number) => [
    made('acct_1', 'vto_live_first', 0),
    balance(7, 1, first),
    rotated('acct_1', 'vto_live_second', 2),
    balance(after, 3, second),
  ];

  it('a new key adds no credits: the same balance passes; 20 more fails ACCOUNT-FREE-CREDITS-ONCE', () => {
    expect(judgeTrace(trace(7)).verdict('ACCOUNT-FREE-CREDITS-ONCE')).toBe('pass');
    expect(judgeTrace(trace(27)).verdict('ACCOUNT-FREE-CREDITS-ONCE')).toBe('fail');
  });

  it("credits set for another account leave this account's interval judged", () => {
    const other = [made('acct_2', 'vto_live_other', 0), creditsSet('acct_2', 5, 2.5)];
    const t = judgeTrace([...other, ...trace(27)]);
    expect(t.verdict('ACCOUNT-FREE-CREDITS-ONCE')).toBe('fail');
  });
});
