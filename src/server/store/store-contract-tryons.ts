/** The Store contract (store-contract.ts): try-ons, their keys and inputs, finishing them once, orphans. */
import { describe, expect, it } from 'vitest';
import { type ContractStores, day, image, result, start } from './store-contract-fixtures.ts';

/** Try-ons, their Idempotency-Keys and inputs, finishing once, orphan release. */
export function describeTryOnsContract(stores: ContractStores): void {
  describe('try-ons and their Idempotency-Keys', () => {
    it('stores a try-on pending with its inputs and its key binding, until the binding expires', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 5);
      await start(store, account, 'tr_1', 10);
      expect(await store.findTryOn('tr_1')).toEqual({
        id: 'tr_1',
        accountId: account,
        status: 'pending',
        scenario: null,
        title: null,
        createdAt: 10,
        finishedAt: null,
        resultFile: null,
        message: null,
      });
      expect(await store.pendingTryOnIds()).toEqual(['tr_1']);
      expect(await store.findIdempotency(account, 'key-tr_1', 10)).toEqual({
        fingerprint: 'f-tr_1',
        tryOnId: 'tr_1',
        expiresAt: 10 + day,
      });
      expect(await store.findIdempotency(account, 'key-tr_1', 10 + day)).toBeUndefined();
      // A key is the account's own.
      expect(await store.findIdempotency(await store.createAccount(0, 0), 'key-tr_1', 10)).toBeUndefined();
      expect(await store.findTryOn('tr_missing')).toBeUndefined();
    });

    it('gives back an input kept as the uploaded image it names, and one kept as bytes, alike', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 5);
      const person = Buffer.from('person bytes');
      const garment = Buffer.from('garment bytes');
      expect(await store.insertImage({ ...image('img_p', account, 0, 0), bytes: person }, 1 << 30)).toBe(true);
      await start(store, account, 'tr_1', 0, { person: { imageId: 'img_p' }, garment: { bytes: garment } });
      expect(await store.inputsOf('tr_1')).toEqual({ person, garment });
    });

    it('finishes a try-on with success once, storing its result and dropping its inputs', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 5);
      await start(store, account, 'tr_1', 0);
      expect(await store.finishSuccess('tr_1', result('r1.png', 0), 7)).toBe(true);
      expect(await store.finishSuccess('tr_1', result('r2.png', 0), 8)).toBe(false);
      expect(await store.finishFailure('tr_1', 'late', 9)).toBe(false);
      expect(await store.findTryOn('tr_1')).toMatchObject({ status: 'success', finishedAt: 7, resultFile: 'r1.png' });
      expect(await store.findResult('r1.png')).toEqual({ ...result('r1.png', 0), tryOnId: 'tr_1' });
      expect(await store.findResult('r2.png')).toBeUndefined();
      expect(await store.inputsOf('tr_1')).toBeUndefined();
      expect(await store.pendingTryOnIds()).toEqual([]);
      expect(await store.balance(account)).toBe(4);
    });

    it('fails a try-on once with its credit refunded, and never refunds twice', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 5);
      await start(store, account, 'tr_1', 0);
      expect(await store.balance(account)).toBe(4);
      expect(await store.finishFailure('tr_1', 'no', 7)).toBe(true);
      expect(await store.finishFailure('tr_1', 'no', 8)).toBe(false);
      expect(await store.finishSuccess('tr_1', result('r1.png', 0), 9)).toBe(false);
      expect(await store.returnCredit('tr_1', 'refund', 9)).toBe(false);
      expect(await store.findTryOn('tr_1')).toMatchObject({ status: 'failed', finishedAt: 7, message: 'no' });
      expect(await store.findResult('r1.png')).toBeUndefined();
      expect(await store.balance(account)).toBe(5);
    });

    it('finishes a try-on one way only when a success and a failure race', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 10);
      const ids = Array.from({ length: 10 }, (_, i) => `tr_${i}`);
      for (const id of ids) await start(store, account, id, 0);
      const finishes = await Promise.all(
        ids.flatMap((id) => [
          store.finishSuccess(id, result(`${id}.png`, 0), 1),
          store.finishFailure(id, 'no', 1),
          store.finishFailure(id, 'no', 1),
        ]),
      );
      expect(finishes.filter(Boolean)).toHaveLength(10);
      const finals = await Promise.all(ids.map((id) => store.findTryOn(id)));
      const failed = finals.filter((t) => t?.status === 'failed').length;
      expect(failed + finals.filter((t) => t?.status === 'success').length).toBe(10);
      expect(await store.balance(account)).toBe(failed);
    });

    it('releases the credits of starts that never stored a try-on, once, and keeps those of stored ones', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 5);
      await start(store, account, 'tr_stored', 0);
      expect(await store.reserveCredit(account, 'tr_crashed', 0)).toBe(true);
      expect(await store.balance(account)).toBe(3);
      expect(await store.releaseOrphanReservations(1)).toBe(1);
      expect(await store.releaseOrphanReservations(2)).toBe(0);
      expect(await store.balance(account)).toBe(4);
      expect(await store.returnCredit('tr_crashed', 'release', 3)).toBe(false);
      expect(await store.findTryOn('tr_stored')).toMatchObject({ status: 'pending' });
    });
  });
}
