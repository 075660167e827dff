import { describe, expect, it } from 'vitest';
import { withReadCache } from './read-cache.ts';
import { openSqliteStore } from './sqlite-store.ts';

const hash = Buffer.alloc(32, 1);

describe('withReadCache', () => {
  it('does not remember a lookup id that found nothing, so a key added later is found', () => {
    const store = withReadCache(openSqliteStore(':memory:'));
    const account = store.createAccount(0, 20);
    expect(store.findKey('lookup000001')).toBeUndefined();
    store.replaceKey(account, 'lookup000001', hash, 1);
    expect(store.findKey('lookup000001')).toMatchObject({ accountId: account, revokedAt: null });
    store.close();
  });

  it('does not remember the limits of an account that does not exist yet', () => {
    const inner = openSqliteStore(':memory:');
    const store = withReadCache(inner);
    expect(store.limitsOf('acc_missing')).toBeNull();
    const account = store.createAccount(0, 20);
    store.setLimits(account, { startsPerMinute: 1, pollsPerMinute: 2, uploadsPerMinute: 3, uploadQuotaBytes: 4 });
    expect(store.limitsOf(account)).toEqual({
      startsPerMinute: 1,
      pollsPerMinute: 2,
      uploadsPerMinute: 3,
      uploadQuotaBytes: 4,
    });
    store.close();
  });

  it('holds at most its bound of entries, forgetting the oldest first, and still answers from the store', () => {
    const store = withReadCache(openSqliteStore(':memory:'), 2);
    const account = store.createAccount(0, 20);
    for (const id of ['a', 'b', 'c']) store.replaceKey(account, `lookup00000${id}`, hash, 1);
    // Each replaceKey revoked the one before; all three are still read right after eviction.
    expect(['a', 'b', 'c'].map((id) => store.findKey(`lookup00000${id}`)?.revokedAt === null)).toEqual([
      false,
      false,
      true,
    ]);
    expect(['a', 'b', 'c'].map((id) => store.findKey(`lookup00000${id}`)?.accountId)).toEqual([
      account,
      account,
      account,
    ]);
    store.close();
  });

  it('wraps exactly the Store methods it was written for (a new method must decide whether it changes what is cached)', () => {
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
    expect(Object.keys(store).sort()).toEqual([...cached, ...passedThrough].sort());
    store.close();
  });
});
