import { describe, expect, it } from 'vitest';
import { withSharedReadCache } from './pg-read-cache.ts';
import { openSqliteStore } from './sqlite-store.ts';
import type { Store } from './store.ts';

const hash = Buffer.alloc(32, 1);

/** An epoch source the test moves by hand, as the shared clock's read of each request would. */
function epochs() {
  const listeners: ((epoch: number) => void)[] = [];
  return {
    onEpoch: (l: (epoch: number) => void) => void listeners.push(l),
    move: (e: number) => listeners.forEach((l) => l(e)),
  };
}

describe('withSharedReadCache', () => {
  it('answers from its cache until the epoch moves, then reads what another writer changed', async () => {
    // `other` stands for another instance: it writes the same database, not through this cache.
    const other = openSqliteStore(':memory:');
    const source = epochs();
    const store = withSharedReadCache(other, source);
    const account = await other.createAccount(0, 20);
    await other.replaceKey(account, 'lookup000001', hash, 1);
    expect(await store.findKey('lookup000001')).toMatchObject({ revokedAt: null });
    await other.revokeKeys(account, 2);
    expect(store.cached.key('lookup000001')).toMatchObject({ revokedAt: null });
    source.move(1);
    expect(store.cached.key('lookup000001')).toBeUndefined();
    expect(await store.findKey('lookup000001')).toMatchObject({ revokedAt: 2 });
    await store.close();
  });

  it('does not remember a read that was under way when the epoch moved', async () => {
    const other = openSqliteStore(':memory:');
    const source = epochs();
    const store = withSharedReadCache(other, source);
    const account = await other.createAccount(0, 20);
    await other.setLimits(account, { startsPerMinute: 1, pollsPerMinute: 2, uploadsPerMinute: 3, uploadQuotaBytes: 4 });
    const reading = store.limitsOf(account);
    source.move(1);
    expect((await reading)?.pollsPerMinute).toBe(2);
    expect(store.cached.limits(account)).toBeUndefined();
    await store.close();
  });

  it('keeps the methods of a store whose methods live on its prototype (a class)', async () => {
    const inner = openSqliteStore(':memory:');
    const classLike = Object.create(inner) as Store;
    const store = withSharedReadCache(classLike, epochs());
    const account = await store.createAccount(0, 20);
    expect(await store.balance(account)).toBe(20);
    await store.close();
  });
});
