import { describe, expect, it } from 'vitest';
import { CallBuckets, Ring } from './call-buckets.ts';

// What the call log keeps is bounded per account, and one caller's requests never push out another's.

const rec = (seq: number, caller: string) => ({ seq, startedAt: 1_000 + seq, caller });

describe('Ring', () => {
  it('keeps the latest `limit` items, oldest first, and counts the ones let go', () => {
    const ring = new Ring<number>(3);
    for (let i = 1; i <= 7; i++) ring.push(i);
    expect([ring.toArray(), ring.dropped]).toEqual([[5, 6, 7], 4]);
  });
});

describe('CallBuckets', () => {
  it('bounds each account on its own, and the callers without an account together', () => {
    const buckets = new CallBuckets({ perAccount: 2, withoutAccount: 3, accounts: 10 });
    let seq = 0;
    buckets.add(rec(++seq, 'acct_a'), true);
    for (let i = 0; i < 100; i++) buckets.add(rec(++seq, i % 2 ? 'no API key' : 'unknown key sha256:1'), false);
    for (let i = 0; i < 5; i++) buckets.add(rec(++seq, 'acct_b'), true);
    expect(buckets.records('acct_a')).toEqual([rec(1, 'acct_a')]);
    expect(buckets.records('acct_b').map((r) => r.seq)).toEqual([105, 106]);
    expect(buckets.records('no API key').map((r) => r.seq)).toEqual([99, 101]);
    expect(buckets.records().map((r) => r.seq)).toEqual([1, 99, 100, 101, 105, 106]);
    const notKept = buckets.notKept();
    const counts = [Object.fromEntries(notKept.byAccount), notKept.withoutAccount, notKept.beyondAccounts];
    expect(counts).toEqual([{ acct_b: 3 }, 97, 0]);
  });

  it('does not record an account past the number of accounts kept, and counts its requests', () => {
    const buckets = new CallBuckets({ perAccount: 5, withoutAccount: 5, accounts: 2 });
    ['acct_a', 'acct_b', 'acct_c', 'acct_c', 'acct_a'].forEach((caller, i) => buckets.add(rec(i, caller), true));
    expect(buckets.records().map((r) => r.caller)).toEqual(['acct_a', 'acct_b', 'acct_a']);
    expect(buckets.notKept().beyondAccounts).toBe(2);
  });

  it('gives the records in the order they started, whatever order they ended in', () => {
    const buckets = new CallBuckets({ perAccount: 5, withoutAccount: 5, accounts: 2 });
    [3, 1, 2].forEach((seq) => buckets.add(rec(seq, 'acct_a'), true));
    expect(buckets.records('acct_a').map((r) => r.seq)).toEqual([1, 2, 3]);
  });
});
