/**
 * The Store contract (store-contract.ts): the credits ledger. A credit is reserved only while the balance
 * allows it, given back at most once, and never spent twice, also when every call comes at once.
 */
import { describe, expect, it } from 'vitest';
import type { ContractStores } from './store-contract-fixtures.ts';

/** The credits ledger: reserve, release and refund once, set, and parallel spends. */
export function describeLedgerContract(stores: ContractStores): void {
  describe('the credits ledger', () => {
    it('reserves a credit only while the balance allows, writing nothing when it does not', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 2);
      expect(await store.reserveCredit(account, 'tr_1', 0)).toBe(true);
      expect(await store.reserveCredit(account, 'tr_2', 0)).toBe(true);
      expect(await store.reserveCredit(account, 'tr_3', 0)).toBe(false);
      expect(await store.balance(account)).toBe(0);
      // The refused reservation left nothing to give back.
      expect(await store.returnCredit('tr_3', 'release', 1)).toBe(false);
      expect(await store.balance(account)).toBe(0);
    });

    it('gives a reserved credit back once, by release or by refund, and nothing it did not reserve', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 3);
      expect(await store.reserveCredit(account, 'tr_1', 0)).toBe(true);
      expect(await store.reserveCredit(account, 'tr_2', 0)).toBe(true);
      expect(await store.returnCredit('tr_1', 'release', 1)).toBe(true);
      expect(await store.returnCredit('tr_1', 'release', 1)).toBe(false);
      expect(await store.returnCredit('tr_1', 'refund', 1)).toBe(false);
      expect(await store.returnCredit('tr_2', 'refund', 1)).toBe(true);
      expect(await store.returnCredit('tr_2', 'release', 1)).toBe(false);
      expect(await store.returnCredit('tr_unknown', 'refund', 1)).toBe(false);
      expect(await store.balance(account)).toBe(3);
    });

    it('sets a balance to the credits asked, up or down, and an unknown account has none', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 20);
      await store.setCredits(account, 7, 1);
      expect(await store.balance(account)).toBe(7);
      await store.setCredits(account, 7, 2);
      expect(await store.balance(account)).toBe(7);
      await store.setCredits(account, 1_000, 3);
      expect(await store.balance(account)).toBe(1_000);
      await store.setCredits(account, 0, 4);
      expect(await store.balance(account)).toBe(0);
      expect(await store.reserveCredit(account, 'tr_1', 5)).toBe(false);
      expect(await store.balance('acct_missing')).toBe(0);
    });

    it('grants exactly the balance to 50 reserves at once on a balance of 10, and never goes below 0', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 10);
      const other = await store.createAccount(0, 10);
      const reserves = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.reserveCredit(account, `tr_${i}`, 0)),
      );
      expect(reserves.filter(Boolean)).toHaveLength(10);
      expect([await store.balance(account), await store.balance(other)]).toEqual([0, 10]);
    });

    it('gives one reservation back once when 20 returns of it come at once', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 1);
      expect(await store.reserveCredit(account, 'tr_1', 0)).toBe(true);
      const returns = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.returnCredit('tr_1', i % 2 ? 'refund' : 'release', 1)),
      );
      expect(returns.filter(Boolean)).toHaveLength(1);
      expect(await store.balance(account)).toBe(1);
    });

    it('keeps the balance exact when reserves, returns and a set of the credits interleave', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 5);
      const first = await Promise.all(Array.from({ length: 5 }, (_, i) => store.reserveCredit(account, `a_${i}`, 0)));
      expect(first.every(Boolean)).toBe(true);
      const mixed = await Promise.all([
        ...Array.from({ length: 5 }, (_, i) => store.returnCredit(`a_${i}`, 'release', 1)),
        ...Array.from({ length: 20 }, (_, i) => store.reserveCredit(account, `b_${i}`, 1)),
      ]);
      const returned = mixed.slice(0, 5).filter(Boolean).length;
      const reserved = mixed.slice(5).filter(Boolean).length;
      expect(returned).toBe(5);
      expect(reserved).toBeLessThanOrEqual(5);
      expect(await store.balance(account)).toBe(5 - reserved);
      expect(await store.balance(account)).toBeGreaterThanOrEqual(0);
    });
  });
}
