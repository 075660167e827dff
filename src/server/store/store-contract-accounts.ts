/** The Store contract (store-contract.ts): accounts, keys and limits; uploads and their storage quota. */
import { describe, expect, it } from 'vitest';
import { type ContractStores, day, hash, hour, image } from './store-contract-fixtures.ts';

/** Accounts, keys and limits. */
export function describeAccountsContract(stores: ContractStores): void {
  describe('accounts and keys', () => {
    it('creates accounts with their free credits once, each its own, and knows which exist', async () => {
      const store = await stores.open();
      const a = await store.createAccount(0, 20);
      const b = await store.createAccount(0, 0);
      expect(a).not.toBe(b);
      expect([await store.balance(a), await store.balance(b)]).toEqual([20, 0]);
      expect([await store.accountExists(a), await store.accountExists('acct_missing')]).toEqual([true, false]);
    });

    it('keeps one active key per account: a new key revokes the one before, and revokeKeys the last', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 20);
      expect(await store.findKey('lookup000001')).toBeUndefined();
      await store.replaceKey(account, 'lookup000001', hash(1), 1);
      expect(await store.findKey('lookup000001')).toEqual({ accountId: account, hash: hash(1), revokedAt: null });
      await store.replaceKey(account, 'lookup000002', hash(2), 2);
      expect(await store.findKey('lookup000001')).toMatchObject({ accountId: account, revokedAt: 2 });
      expect(await store.findKey('lookup000002')).toMatchObject({ accountId: account, revokedAt: null });
      await store.revokeKeys(account, 3);
      expect(await store.findKey('lookup000002')).toMatchObject({ revokedAt: 3 });
      // Only the first key's account creation granted credits.
      expect(await store.balance(account)).toBe(20);
    });

    it("keeps an account's own limits, none until set, and none again once cleared", async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 20);
      const other = await store.createAccount(0, 20);
      expect(await store.limitsOf(account)).toBeNull();
      const limits = { startsPerMinute: 1, pollsPerMinute: 2, uploadsPerMinute: 3, uploadQuotaBytes: 4 };
      await store.setLimits(account, limits);
      expect([await store.limitsOf(account), await store.limitsOf(other)]).toEqual([limits, null]);
      await store.setLimits(account, null);
      expect(await store.limitsOf(account)).toBeNull();
      expect(await store.limitsOf('acct_missing')).toBeNull();
    });
  });
}

/** Uploads and the storage quota. */
export function describeUploadsContract(stores: ContractStores): void {
  describe('the storage quota of uploads', () => {
    it('stores an upload only while the live uploads and it fit the quota, and counts each until its id expires', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 0);
      const other = await store.createAccount(0, 0);
      expect(await store.insertImage(image('img_a', account, 400, 0), 1000)).toBe(true);
      expect(await store.insertImage(image('img_b', account, 400, 2 * hour), 1000)).toBe(true);
      expect(await store.liveUploadBytes(account, 2 * hour)).toBe(800);
      expect(await store.insertImage(image('img_c', account, 300, 3 * hour), 1000)).toBe(false);
      expect(await store.findImage('img_c')).toBeUndefined();
      // Another account's uploads are its own.
      expect(await store.insertImage(image('img_o', other, 1000, 3 * hour), 1000)).toBe(true);
      // 300 more bytes fit once img_a expires (24 h after it was uploaded); 700 more once img_b does too.
      expect(await store.uploadFitsAt(account, 3 * hour, 300, 1000)).toBe(day);
      expect(await store.uploadFitsAt(account, 3 * hour, 700, 1000)).toBe(day + 2 * hour);
      expect(await store.uploadFitsAt(account, 3 * hour, 200, 1000)).toBe(3 * hour);
      expect(await store.uploadFitsAt(account, 3 * hour, 1001, 1000)).toBeNull();
      expect(await store.liveUploadBytes(account, day)).toBe(400);
      expect(await store.insertImage(image('img_c', account, 300, day), 1000)).toBe(true);
    });

    it('gives an upload back as stored', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 0);
      const stored = { ...image('img_a', account, 10, 5), scenario: 'generation-fails' as const };
      expect(await store.insertImage(stored, 1000)).toBe(true);
      expect(await store.findImage('img_a')).toEqual(stored);
    });

    it('lets no more parallel uploads in than the quota holds', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 0);
      const stored = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.insertImage(image(`img_${i}`, account, 100, 0), 1000)),
      );
      expect(stored.filter(Boolean)).toHaveLength(10);
      expect(await store.liveUploadBytes(account, 0)).toBe(1000);
    });
  });
}
