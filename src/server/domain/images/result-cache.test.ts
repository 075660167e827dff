import { describe, expect, it } from 'vitest';
import { ResultCache } from './result-cache.ts';

type R = { readonly ok: boolean; readonly n: number };

describe('ResultCache', () => {
  it('makes a result once per key, and shares one that is still being made', async () => {
    const cache = new ResultCache<R>(4);
    let made = 0;
    const make = async (): Promise<R> => ({ ok: true, n: ++made });
    const [a, b] = await Promise.all([cache.get('k', make), cache.get('k', make)]);
    expect(await cache.get('k', make)).toEqual({ ok: true, n: 1 });
    expect([a, b, made]).toEqual([{ ok: true, n: 1 }, { ok: true, n: 1 }, 1]);
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const cache = new ResultCache<R>(2);
    const calls: string[] = [];
    const make = (key: string) => async (): Promise<R> => (calls.push(key), { ok: true, n: calls.length });
    await cache.get('a', make('a'));
    await cache.get('b', make('b'));
    await cache.get('a', make('a')); // a is now the most recent
    await cache.get('c', make('c')); // b goes
    await cache.get('a', make('a'));
    await cache.get('b', make('b'));
    expect(calls).toEqual(['a', 'b', 'c', 'b']);
    expect(cache.size).toBe(2);
  });

  it('does not keep a result that is not ok, nor a rejection', async () => {
    const cache = new ResultCache<R>(4);
    let made = 0;
    await cache.get('bad', async () => ({ ok: false, n: ++made }));
    await expect(cache.get('boom', () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.size).toBe(0);
    expect(await cache.get('bad', async () => ({ ok: false, n: ++made }))).toEqual({ ok: false, n: 2 });
  });

  it('keys parts by their lengths too, so two splits of the same bytes differ', () => {
    const ab = ResultCache.keyOf([Buffer.from('ab'), Buffer.from('c')]);
    expect(ResultCache.keyOf([Buffer.from('a'), Buffer.from('bc')])).not.toBe(ab);
    expect(ResultCache.keyOf([Buffer.from('ab'), Buffer.from('c')])).toBe(ab);
  });
});
