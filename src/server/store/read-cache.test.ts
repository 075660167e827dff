import { describe, expect, it } from 'vitest';
import { withReadCache } from './read-cache.ts';
import { openSqliteStore } from './sqlite-store.ts';

const hash = Buffer.alloc(32, 1);

describe('withReadCache', () => {
  it('does not remember a lookup id that found nothing, so a key added later is found', async () => {
    const store = withReadCache(openSqliteStore(':memory:'));
    const account = await store.createAccount(0, 20);
    expect(await store.findKey('lookup000001')).toBeUndefined();
    await store.replaceKey(account, 'lookup000001', hash, 1);
    expect(await store.findKey('lookup000001')).toMatchObject({ accountId: account, revokedAt: null });
    await store.close();
  });

  it('does not remember the limits of an account that does not exist yet', async () => {
    const inner = openSqliteStore(':memory:');
    const store = withReadCache(inner);
    expect(await store.limitsOf('acc_missing')).toBeNull();
    const account = await store.createAccount(0, 20);
    await store.setLimits(account, { startsPerMinute: 1, pollsPerMinute: 2, uploadsPerMinute: 3, uploadQuotaBytes: 4 });
    expect(await store.limitsOf(account)).toEqual({
      startsPerMinute: 1,
      pollsPerMinute: 2,
      uploadsPerMinute: 3,
      uploadQuotaBytes: 4,
    });
    await store.close();
  });

  it('holds at most its bound of entries, forgetting the oldest first, and still answers from the store', async () => {
    const store = withReadCache(openSqliteStore(':memory:'), 2);
    const account = await store.createAccount(0, 20);
    for (const id of ['a', 'b', 'c']) await store.replaceKey(account, `lookup00000${id}`, hash, 1);
    // Each replaceKey revoked the one before; all three are still read right after eviction.
    const read = async () => {
      const records = [];
      // One at a time, so the eviction order is the reading order.
      for (const id of ['a', 'b', 'c']) records.push(await store.findKey(`lookup00000${id}`));
      return records;
    };
    expect((await read()).map((record) => record?.revokedAt === null)).toEqual([false, false, true]);
    expect((await read()).map((record) => record?.accountId)).toEqual([account, account, account]);
    await store.close();
  });

  it('wraps exactly the Store methods it was written for (a new method must decide whether it changes what is cached)', async () => {
    const store = withReadCache(openSqliteStore(':memory:'));
    const cached = [
      'findKey',
      'finishFailure',
      'finishSuccess',
      'findTryOn',
      'limitsOf',
      'replaceKey',
      'revokeKeys',
      'setLimits',
      'sweep',
    ];
    const passedThrough = [
      'accountExists',
      'balance',
      'close',
      'createAccount',
      'findIdempotency',
      'findImage',
      'findResult',
      'inputsOf',
      'insertImage',
      'insertTryOn',
      'liveUploadBytes',
      'pendingTryOnIds',
      'releaseOrphanReservations',
      'reserveCredit',
      'returnCredit',
      'setCredits',
      'uploadFitsAt',
    ];
    // `cached` is the cache's own answers and `forgetAll` its reset, beside the Store methods.
    expect(Object.keys(store).sort()).toEqual([...cached, ...passedThrough, 'cached', 'forgetAll'].sort());
    await store.close();
  });
});
