/**
 * The read cache under asynchronous writes: a read still under way when a write resolves must not put what
 * it read before the write into the cache. The reads here are held back until after the write (as a
 * database server may answer them), and the cache must serve what the write left.
 */
import { describe, expect, it } from 'vitest';
import { withReadCache } from './read-cache.ts';
import { openSqliteStore } from './sqlite-store.ts';
import type { Store } from './store.ts';

const hash = Buffer.alloc(32, 1);

/** `store` whose reads `name` answer only once `release` is called: a read that started before a write. */
function heldReads(store: Store, names: readonly (keyof Store)[]): { store: Store; release: () => void } {
  const gates: (() => void)[] = [];
  const held: Record<string, unknown> = { ...store };
  for (const name of names) {
    const read = store[name] as (...args: unknown[]) => Promise<unknown>;
    held[name] = async (...args: unknown[]) => {
      // The gate is set at the call, so `release` right after the call lets this read answer.
      const gate = new Promise<void>((resolve) => gates.push(resolve));
      const answer = await read(...args);
      await gate;
      return answer;
    };
  }
  return { store: held as unknown as Store, release: () => gates.splice(0).forEach((open) => open()) };
}

describe('the read cache with asynchronous writes', () => {
  it('serves a revoked key as revoked once the revocation resolved, whatever a read under way saw', async () => {
    const inner = openSqliteStore(':memory:');
    const account = await inner.createAccount(0, 20);
    await inner.replaceKey(account, 'lookup000001', hash, 1);
    const { store: slow, release } = heldReads(inner, ['findKey']);
    const store = withReadCache(slow);

    const before = store.findKey('lookup000001');
    await store.revokeKeys(account, 2);
    release();
    expect((await before)?.revokedAt).toBeNull();
    const after = store.findKey('lookup000001');
    release();
    expect((await after)?.revokedAt).toBe(2);
    expect(store.cached.key('lookup000001')?.revokedAt).toBe(2);
    await store.close();
  });

  it('serves limits set once the write resolved, whatever a read under way saw', async () => {
    const inner = openSqliteStore(':memory:');
    const account = await inner.createAccount(0, 20);
    const { store: slow, release } = heldReads(inner, ['limitsOf']);
    const store = withReadCache(slow);
    const limits = { startsPerMinute: 1, pollsPerMinute: 2, uploadsPerMinute: 3, uploadQuotaBytes: 4 };

    const before = store.limitsOf(account);
    await store.setLimits(account, limits);
    release();
    expect(await before).toBeNull();
    expect(store.cached.limits(account)).toBeUndefined();
    const after = store.limitsOf(account);
    release();
    expect(await after).toEqual(limits);
    expect(store.cached.limits(account)).toEqual(limits);
    await store.close();
  });

  it('serves a try-on the sweep deleted as gone once the sweep resolved, whatever a read under way saw', async () => {
    const inner = openSqliteStore(':memory:');
    const account = await inner.createAccount(0, 20);
    expect(await inner.reserveCredit(account, 'tr_1', 0)).toBe(true);
    const bytes = { bytes: Buffer.from('x') };
    await inner.insertTryOn(
      {
        id: 'tr_1',
        accountId: account,
        scenario: null,
        title: null,
        inputs: { person: bytes, garment: bytes },
        idempotency: { key: 'key-tr_1', fingerprint: 'f', expiresAt: 1 },
      },
      0,
    );
    expect(await inner.finishFailure('tr_1', 'no', 0)).toBe(true);
    const { store: slow, release } = heldReads(inner, ['findTryOn']);
    const store = withReadCache(slow);

    const before = store.findTryOn('tr_1');
    expect(await store.sweep(10, 5)).toBeGreaterThan(0);
    release();
    expect((await before)?.status).toBe('failed');
    expect(store.cached.tryOn('tr_1')).toBeUndefined();
    const after = store.findTryOn('tr_1');
    release();
    expect(await after).toBeUndefined();
    await store.close();
  });
});
