/** Where GET /account keeps the balance: paths the user gives, and what the run may find by itself. */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { maxJsonDepth } from '../shared/json-bounds.ts';
import {
  balanceOf,
  decideBalance,
  describeBalance,
  detectBalance,
  maxNumericLeaves,
  numericLeaves,
  parseBalancePath,
  pointerOf,
  valueAt,
} from './account-balance.ts';

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
    [
      'the one numeric field under any name',
      200,
      { account: { remaining: 7 }, plan: 'pro' },
      undefined,
      '/account/remaining',
    ],
    ['the one field named like a balance', 200, { balance: 20, limit: 12, used: 3 }, undefined, '/balance'],
    [
      'the one field named like credits, nested',
      200,
      { data: { creditsLeft: 9, resetsIn: 3600 } },
      undefined,
      '/data/creditsLeft',
    ],
    ['by the value the run set', 200, { limit: 12, wallet: { amount: 7919 } }, 7919, '/wallet/amount'],
    [
      'none: two numbers, neither named',
      200,
      { a: 1, b: 2 },
      undefined,
      'GET /account gave 2 numeric fields (/a, /b); say which with --balance-path',
    ],
    [
      'none: two named like a balance',
      200,
      { credits: 1, balance: 2 },
      undefined,
      'GET /account gave 2 numeric fields (/credits, /balance); say which with --balance-path',
    ],
    ['none: no number', 200, { credits: '20' }, undefined, 'GET /account gave no numeric field'],
    ['none: not 200', 404, { error: 'x', code: 'NOT_FOUND' }, undefined, 'GET /account answered 404, not 200'],
    ['none: no answer', undefined, undefined, undefined, 'GET /account answered nothing, not 200'],
    [
      'none: the value the run set sits twice',
      200,
      { a: 7919, b: 7919 },
      7919,
      'GET /account gave 2 fields holding the balance of 7919 the run set',
    ],
  ])('%s', (_name, status, json, expected, want) => {
    const d = detectBalance(status, json, expected);
    expect(d.source ? d.source.pointer : d.why).toBe(want);
    if (d.source) expect(d.source.how).toBe('detected');
  });

  it('says which budget the run uses', () => {
    expect(describeBalance({ source: { pointer: '/credits', how: 'given' } })).toBe(
      'Balance: read from GET /account at /credits (given with --balance-path)',
    );
    expect(describeBalance({ why: 'GET /account gave no numeric field' })).toMatch(
      /^Balance: not read \(GET \/account gave no numeric field\); pessimistic budget: every start that could be charged counts as spent, nothing is refunded$/,
    );
  });
});

describe('balanceOf', () => {
  const ex = (status: number, json: unknown): Exchange => ({
    seq: 1,
    request: { method: 'GET', url: 'https://x/api/v1/account', headers: {} },
    response: {
      status,
      headers: {},
      text: JSON.stringify(json),
      json,
      bytes: Buffer.alloc(0),
      truncated: false,
      durationMs: 1,
    },
  });
  it('reads the number at the source, and throws where there is none', () => {
    expect(balanceOf(ex(200, { data: { credits: 4 } }), { pointer: '/data/credits', how: 'given' })).toBe(4);
    expect(() => balanceOf(ex(200, { credits: '4' }), { pointer: '/credits', how: 'detected' })).toThrow(
      /GET \/account gave no balance at \/credits \(200/,
    );
    expect(() => balanceOf(ex(500, { credits: 4 }), { pointer: '/credits', how: 'detected' })).toThrow(/\(500/);
  });
});

describe('a GET /account body of any depth and size', () => {
  const deep = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
  const answered = (json: unknown, jsonUnread?: string): Exchange => ({
    seq: 1,
    request: { method: 'GET', url: 'https://x/api/v1/account', headers: {} },
    response: {
      status: 200,
      headers: {},
      text: '[[[',
      json,
      ...(jsonUnread !== undefined && { jsonUnread }),
      bytes: Buffer.alloc(0),
      truncated: false,
      durationMs: 1,
    },
  });

  it('is read without a throw at 200,000 levels: no balance, and the reason', () => {
    expect(numericLeaves(deep(200_000))).toEqual([]);
    expect(detectBalance(200, deep(200_000))).toEqual({
      why: `GET /account: the target answered a JSON body nested deeper than ${maxJsonDepth} levels`,
    });
    expect(detectBalance(200, { credits: 3, deep: deep(200_000) })).toEqual({
      why: `GET /account: the target answered a JSON body nested deeper than ${maxJsonDepth} levels`,
    });
  });

  it('lists numbers no deeper than the bound, and at most one past the cap', () => {
    const atBound = JSON.parse('{"a":'.repeat(maxJsonDepth - 1) + '{"credits":5}' + '}'.repeat(maxJsonDepth - 1));
    expect(numericLeaves(atBound)).toEqual([
      { segments: [...Array<string>(maxJsonDepth - 1).fill('a'), 'credits'], value: 5 },
    ]);
    const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`n${i}`, i]));
    expect(numericLeaves(many)).toHaveLength(maxNumericLeaves + 1);
    expect(detectBalance(200, many)).toEqual({
      why: `GET /account gave more than ${maxNumericLeaves} numeric fields; say which holds the balance with --balance-path`,
    });
  });

  it('names the fields it found in a message of bounded length', () => {
    const keys = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`${'k'.repeat(500)}${i}`, i]));
    const d = detectBalance(200, keys);
    expect(d.source).toBeUndefined();
    expect((d as { why: string }).why.length).toBeLessThan(400);
  });

  it('decides on no balance, with the reason, when the body was not read', async () => {
    const unread = `the target answered a JSON body nested deeper than ${maxJsonDepth} levels`;
    const decision = await decideBalance(async () => answered(undefined, unread), { key: 'k' });
    expect(decision).toEqual({ why: `GET /account: ${unread}` });
    expect(() => balanceOf(answered(undefined, unread), { pointer: '/credits', how: 'given' })).toThrow(`; ${unread})`);
  });
});
