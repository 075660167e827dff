/** The Store contract (store-contract.ts): the retention sweep deletes what is past retention, balances stay. */
import { describe, expect, it } from 'vitest';
import { expiredUploadKeptMs } from './sqlite-sweep.ts';
import {
  bytesInput,
  type ContractStores,
  day,
  hour,
  image,
  result,
  retention,
  start,
} from './store-contract-fixtures.ts';

/** The retention sweep. */
export function describeRetentionContract(stores: ContractStores): void {
  describe('the retention sweep', () => {
    it('deletes results once their URL expired and uploads an hour after their id expired, and not before', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 5);
      expect(await store.insertImage(image('img_a', account, 50_000, 0), 1 << 30)).toBe(true);
      await start(store, account, 'tr_1', 0);
      expect(await store.finishSuccess('tr_1', result('r1.png', 0), 0)).toBe(true);
      await store.sweep(day - 1, retention);
      expect([(await store.findImage('img_a'))?.id, (await store.findResult('r1.png'))?.file]).toEqual([
        'img_a',
        'r1.png',
      ]);
      // The result and the key go at expiry; the upload an hour later (its lifetime check refuses it meanwhile).
      expect(await store.sweep(day, retention)).toBe(2);
      expect((await store.findImage('img_a'))?.id).toBe('img_a');
      expect(await store.findIdempotency(account, 'key-tr_1', 0)).toBeUndefined();
      await store.sweep(day + expiredUploadKeptMs - 1, retention);
      expect((await store.findImage('img_a'))?.id).toBe('img_a');
      expect(await store.sweep(day + expiredUploadKeptMs, retention)).toBe(1);
      expect(await store.findImage('img_a')).toBeUndefined();
      expect(await store.findResult('r1.png')).toBeUndefined();
      expect((await store.findTryOn('tr_1'))?.status).toBe('success');
    });

    it('keeps an upload a pending try-on names past its expiry, and sweeps it once the try-on is final', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 5);
      const person = Buffer.from('person bytes');
      const garment = Buffer.from('garment bytes');
      expect(await store.insertImage({ ...image('img_p', account, 0, 0), bytes: person }, 1 << 30)).toBe(true);
      expect(await store.insertImage({ ...image('img_g', account, 0, 0), bytes: garment }, 1 << 30)).toBe(true);
      expect(await store.insertImage({ ...image('img_other', account, 0, 0), bytes: garment }, 1 << 30)).toBe(true);
      await start(store, account, 'tr_1', 0, { person: { imageId: 'img_p' }, garment: { imageId: 'img_g' } });

      await store.sweep(48 * hour, retention);
      expect(await store.findImage('img_other')).toBeUndefined();
      expect(await store.inputsOf('tr_1')).toEqual({ person, garment });

      expect(await store.finishSuccess('tr_1', result('r1.png', 48 * hour), 48 * hour)).toBe(true);
      expect(await store.inputsOf('tr_1')).toBeUndefined();
      await store.sweep(48 * hour, retention);
      expect(await store.findImage('img_p')).toBeUndefined();
      expect(await store.findImage('img_g')).toBeUndefined();
    });

    it('has no inputs for a try-on whose named upload was deleted (generation then fails it)', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 5);
      expect(await store.insertImage(image('img_p', account, 10, 0), 1 << 30)).toBe(true);
      await store.sweep(48 * hour, retention);
      await start(store, account, 'tr_1', 48 * hour, { person: { imageId: 'img_p' }, garment: bytesInput('g') });
      expect(await store.inputsOf('tr_1')).toBeUndefined();
    });

    it('deletes final try-ons after the record retention and keeps every balance', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 20);
      const other = await store.createAccount(0, 20);
      await start(store, account, 'tr_ok', 0);
      expect(await store.finishSuccess('tr_ok', result('r.png', 0), hour)).toBe(true);
      await start(store, account, 'tr_failed', 0);
      expect(await store.finishFailure('tr_failed', 'no', hour)).toBe(true);
      expect(await store.reserveCredit(account, 'tr_never', 0)).toBe(true);
      expect(await store.returnCredit('tr_never', 'release', 0)).toBe(true);
      await store.setCredits(account, 30, 0);
      await start(store, other, 'tr_other', 0);
      expect(await store.finishSuccess('tr_other', result('o.png', 0), hour)).toBe(true);
      const balances = [await store.balance(account), await store.balance(other)];
      expect(balances).toEqual([30, 19]);

      await store.sweep(hour + retention - 1, retention);
      expect((await store.findTryOn('tr_ok'))?.status).toBe('success');
      await store.sweep(hour + retention, retention);
      const gone = await Promise.all(['tr_ok', 'tr_failed', 'tr_other'].map((id) => store.findTryOn(id)));
      expect(gone).toEqual([undefined, undefined, undefined]);
      expect([await store.balance(account), await store.balance(other)]).toEqual(balances);
      // A crash recovery after the sweep finds no orphan to release: nothing is given back twice.
      expect(await store.releaseOrphanReservations(hour + retention)).toBe(0);
      expect(await store.returnCredit('tr_never', 'release', hour + retention)).toBe(false);
      expect([await store.balance(account), await store.balance(other)]).toEqual(balances);

      // Later rows are swept the same way, and the balance still stays.
      await start(store, account, 'tr_later', 2 * retention);
      expect(await store.finishSuccess('tr_later', result('l.png', 2 * retention), 2 * retention)).toBe(true);
      await store.sweep(3 * retention, retention);
      expect(await store.balance(account)).toBe(29);
      expect(await store.findTryOn('tr_later')).toBeUndefined();
    });

    it('keeps the reservation of a pending try-on and of a start under way, so each can still be given back once', async () => {
      const store = await stores.open();
      const account = await store.createAccount(0, 20);
      await start(store, account, 'tr_pending', 0);
      expect(await store.reserveCredit(account, 'tr_starting', 0)).toBe(true);
      await store.sweep(10 * retention, retention);
      expect((await store.findTryOn('tr_pending'))?.status).toBe('pending');
      expect(await store.pendingTryOnIds()).toEqual(['tr_pending']);
      expect(await store.balance(account)).toBe(18);
      expect(await store.finishFailure('tr_pending', 'no', 10 * retention)).toBe(true);
      expect(await store.returnCredit('tr_starting', 'release', 10 * retention)).toBe(true);
      expect(await store.returnCredit('tr_starting', 'release', 10 * retention)).toBe(false);
      expect(await store.balance(account)).toBe(20);
      await store.sweep(20 * retention, retention);
      expect([await store.balance(account), await store.findTryOn('tr_pending')]).toEqual([20, undefined]);
    });
  });
}
