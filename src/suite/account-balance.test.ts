/** Where GET /account keeps the balance: paths the user gives, and what the run may find by itself. */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { balanceOf, describeBalance, detectBalance, numericLeaves, parseBalancePath, pointerOf, valueAt } from './account-balance.ts';

describe('balance paths', () => {
  it.each<[string, string[] | undefined]>([
    ['/credits', ['credits']],
    ['/data/credits', ['data', 'credits']],
    ['/a~1b/c~0d', ['a/b', 'c~d']],
    ['credits', ['credits']],
    ['data.balance', ['data', 'balance']],
    ['/items/0/n', ['items', '0', 'n']],
    ['', undefined],
    ['/', undefined],
    ['a..b', undefined],
  ])('parses %j', (path, want) => {
    expect(parseBalancePath(path)).toEqual(want);
  });

  it('writes segments back as a JSON pointer, and reads values at them', () => {
    expect(pointerOf(['a/b', 'c~d'])).toBe('/a~1b/c~0d');
    expect(valueAt({ items: [{ n: 4 }] }, ['items', '0', 'n'])).toBe(4);
    expect(valueAt({ a: 1 }, ['a', 'b'])).toBeUndefined();
  });

  it('lists every finite number with where it sits', () => {
    expect(numericLeaves({ a: 1, b: { c: 2, d: 'x', e: [3] }, f: null })).toEqual([
      { segments: ['a'], value: 1 },
      { segments: ['b', 'c'], value: 2 },
      { segments: ['b', 'e', '0'], value: 3 },
    ]);
  });
});

describe('detectBalance', () => {
  it.each<[string, number | undefined, unknown, number | undefined, string]>([
    ['the one numeric field', 200, { credits: 20 }, undefined, '/credits'],
    ['the one numeric field under any name', 200, { account: { remaining: 7 }, plan: 'pro' }, undefined, '/account/remaining'],
    ['the one field named like a balance', 200, { balance: 20, limit: 12, used: 3 }, undefined, '/balance'],
    ['the one field named like credits, nested', 200, { data: { creditsLeft: 9, resetsIn: 3600 } }, undefined, '/data/creditsLeft'],
    ['by the value the run set', 200, { limit: 12, wallet: { amount: 7919 } }, 7919, '/wallet/amount'],
    ['none: two numbers, neither named', 200, { a: 1, b: 2 }, undefined, 'GET /account gave 2 numeric fields (/a, /b); say which with --balance-path'],
    ['none: two named like a balance', 200, { credits: 1, balance: 2 }, undefined, 'GET /account gave 2 numeric fields (/credits, /balance); say which with --balance-path'],
    ['none: no number', 200, { credits: '20' }, undefined, 'GET /account gave no numeric field'],
    ['none: not 200', 404, { error: 'x', code: 'NOT_FOUND' }, undefined, 'GET /account answered 404, not 200'],
    ['none: no answer', undefined, undefined, undefined, 'GET /account answered nothing, not 200'],
    ['none: the value the run set sits twice', 200, { a: 7919, b: 7919 }, 7919, 'GET /account gave 2 fields holding the balance of 7919 the run set'],
  ])('%s', (_name, status, json, expected, want) => {
    const d = detectBalance(status, json, expected);
    expect(d.source ? d.source.pointer : d.why).toBe(want);
    if (d.source) expect(d.source.how).toBe('detected');
  });

  it('says which budget the run uses', () => {
    expect(describeBalance({ source: { pointer: '/credits', how: 'given' } })).toBe('Balance: read from GET /account at /credits (given with --balance-path)');
    expect(describeBalance({ why: 'GET /account gave no numeric field' })).toMatch(/^Balance: not read \(GET \/account gave no numeric field\); pessimistic budget: every start that could be charged counts as spent, nothing is refunded$/);
  });
});

describe('balanceOf', () => {
  const ex = (status: number, json: unknown): Exchange => ({
    seq: 1,
    request: { method: 'GET', url: 'https://x/api/v1/account', headers: {} },
    response: { status, headers: {}, text: JSON.stringify(json), json, bytes: Buffer.alloc(0), truncated: false, durationMs: 1 },
  });
  it('reads the number at the source, and throws where there is none', () => {
    expect(balanceOf(ex(200, { data: { credits: 4 } }), { pointer: '/data/credits', how: 'given' })).toBe(4);
    expect(() => balanceOf(ex(200, { credits: '4' }), { pointer: '/credits', how: 'detected' })).toThrow(/GET \/account gave no balance at \/credits \(200/);
    expect(() => balanceOf(ex(500, { credits: 4 }), { pointer: '/credits', how: 'detected' })).toThrow(/\(500/);
  });
});
