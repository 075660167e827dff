/**
 * Two PostgreSQL stores on one database behave as one store, as two server instances must: credits are
 * never spent twice nor taken below 0, one Idempotency-Key binds one try-on, a try-on finishes once with
 * one refund at most, an orphan release never frees a credit a try-on was stored on, and an account's
 * parallel uploads never pass its quota. Each race is run for real, across two connection pools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgCluster } from '../../src/sandbox/pg-cluster.ts';
import { newImageId, newTryOnId } from '../../src/server/domain/ids.ts';
import { IdempotencyKeyBound, ReservationReleased } from '../../src/server/store/pg-errors.ts';
import type { PgStore } from '../../src/server/store/pg-store.ts';
import { freshDatabase, newTryOn, openStores, query, startTestCluster, tally } from './store-pg-helpers.ts';

let cluster: PgCluster;
const opened: PgStore[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await cluster?.stop();
});

/** Two stores on a fresh database (two instances), and an account with `credits`. */
async function twoInstances(credits: number, orphanGraceMs = 0) {
  const url = await freshDatabase(cluster);
  const [a, b] = (await openStores(url, 2, { orphanGraceMs })) as [PgStore, PgStore];
  opened.push(a, b);
  const accountId = await a.createAccount(1_000, credits);
  return { url, a, b, accountId };
}

describe('two instances on one database', () => {
  it('50 parallel reserves across both on a balance of 10: exactly 10, and the balance ends at 0', async () => {
    const { a, b, accountId } = await twoInstances(10);
    const refs = Array.from({ length: 50 }, () => newTryOnId());
    const { yes, no, errors } = await tally(refs.map((ref, i) => (i % 2 ? a : b).reserveCredit(accountId, ref, 2_000)));
    expect(errors).toEqual([]);
    expect({ yes, no }).toEqual({ yes: 10, no: 40 });
    expect(await a.balance(accountId)).toBe(0);
    expect(await b.balance(accountId)).toBe(0);
  });

  it('parallel reserves and a setCredits keep the ledger consistent: the balance is never below 0', async () => {
    const { a, b, accountId } = await twoInstances(3);
    const work = Array.from({ length: 30 }, (_, i) =>
      i === 10 ? a.setCredits(accountId, 5, 2_000) : (i % 2 ? a : b).reserveCredit(accountId, newTryOnId(), 2_000),
    );
    const { yes, errors } = await tally(work);
    expect(errors).toEqual([]);
    // At most 3 before the set and 5 after it; whatever the order, the sum of the rows stays at or above 0.
    expect(yes).toBeGreaterThanOrEqual(5);
    expect(yes).toBeLessThanOrEqual(8);
    expect(await a.balance(accountId)).toBeGreaterThanOrEqual(0);
  });

  it('the same Idempotency-Key inserted from both at once: one try-on, the other refused', async () => {
    const { url, a, b, accountId } = await twoInstances(10);
    for (let round = 0; round < 10; round++) {
      const key = `key-${round}`;
      const ids = [newTryOnId(), newTryOnId()];
      const settled = await Promise.allSettled([
        a.insertTryOn(newTryOn(accountId, key, ids[0]), 3_000),
        b.insertTryOn(newTryOn(accountId, key, ids[1]), 3_000),
      ]);
      const refused = settled.filter((s) => s.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(IdempotencyKeyBound);
      const bound = await a.findIdempotency(accountId, key, 3_000);
      const winner = ids[settled.findIndex((s) => s.status === 'fulfilled')];
      expect(bound?.tryOnId).toBe(winner);
    }
    const rows = await query<{ n: number }>(url, 'SELECT count(*)::int AS n FROM tryons');
    expect(rows[0]?.n).toBe(10);
  });

  it('an expired binding is taken over by a new try-on, as in the SQLite store', async () => {
    const { a, accountId } = await twoInstances(10);
    await a.insertTryOn({ ...newTryOn(accountId, 'k'), idempotency: { key: 'k', fingerprint: 'f', expiresAt: 5 } }, 1);
    const second = newTryOn(accountId, 'k');
    await a.insertTryOn(second, 10);
    expect((await a.findIdempotency(accountId, 'k', 10))?.tryOnId).toBe(second.id);
  });

  it('finishes racing from both: one finish, one refund at most, the balance right', async () => {
    const { url, a, b, accountId } = await twoInstances(10);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const id = newTryOnId();
      ids.push(id);
      expect(await a.reserveCredit(accountId, id, 2_000)).toBe(true);
      await a.insertTryOn(newTryOn(accountId, `k${i}`, id), 2_000);
    }
    expect(await a.balance(accountId)).toBe(0);
    const result = (id: string) => ({
      file: `r_${id}.png`,
      format: 'png' as const,
      bytes: Buffer.from('r'),
      expiresAt: 9e9,
    });
    const outcomes = await Promise.all(
      ids.map(async (id, i) => {
        // Even rounds: two failures race; odd rounds: a success against a failure.
        const racing =
          i % 2 === 0
            ? [a.finishFailure(id, 'x', 3_000), b.finishFailure(id, 'y', 3_000)]
            : [a.finishSuccess(id, result(id), 3_000), b.finishFailure(id, 'y', 3_000)];
        return tally(racing);
      }),
    );
    for (const o of outcomes) expect({ yes: o.yes, errors: o.errors }).toEqual({ yes: 1, errors: [] });
    const refunds = await query<{ ref: string; n: number }>(
      url,
      "SELECT ref, count(*)::int AS n FROM ledger WHERE kind = 'refund' GROUP BY ref",
    );
    expect(refunds.every((r) => r.n === 1)).toBe(true);
    const failed = (await Promise.all(ids.map((id) => a.findTryOn(id)))).filter((t) => t?.status === 'failed');
    expect(refunds).toHaveLength(failed.length);
    expect(await b.balance(accountId)).toBe(failed.length);
    expect(failed.length).toBeGreaterThanOrEqual(5);
  });

  it('an orphan release racing a try-on being stored: never both, the credit right', async () => {
    const { a, b, accountId } = await twoInstances(40);
    let stored = 0;
    for (let round = 0; round < 20; round++) {
      const id = newTryOnId();
      expect(await a.reserveCredit(accountId, id, 2_000)).toBe(true);
      const [release, insert] = await Promise.allSettled([
        b.releaseOrphanReservations(2_000),
        a.insertTryOn(newTryOn(accountId, `k${round}`, id), 2_000),
      ]);
      if (release.status !== 'fulfilled') throw release.reason;
      if (insert.status === 'fulfilled') {
        stored += 1;
        expect(release.value).toBe(0);
        expect((await a.findTryOn(id))?.status).toBe('pending');
      } else {
        expect(insert.reason).toBeInstanceOf(ReservationReleased);
        expect(release.value).toBe(1);
        expect(await a.findTryOn(id)).toBeUndefined();
      }
    }
    // Every stored try-on holds its credit; every released reservation came back.
    expect(await a.balance(accountId)).toBe(40 - stored);
  });

  it('with an orphan grace, a reservation younger than it is left to its start, an older one released', async () => {
    const { a, b, accountId } = await twoInstances(5, 500);
    expect(await a.reserveCredit(accountId, newTryOnId(), 1_000)).toBe(true);
    expect(await b.releaseOrphanReservations(1_499)).toBe(0);
    expect(await b.releaseOrphanReservations(1_500)).toBe(1);
    expect(await a.balance(accountId)).toBe(5);
  });

  it('parallel uploads of one account across both never pass its storage quota', async () => {
    const { a, b, accountId } = await twoInstances(0);
    const image = (i: number) => ({
      id: newImageId(),
      accountId,
      format: 'png' as const,
      bytes: Buffer.alloc(100, i),
      scenario: null,
      createdAt: 1_000,
      expiresAt: 100_000,
    });
    const { yes, errors } = await tally(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).insertImage(image(i), 1_000)),
    );
    expect(errors).toEqual([]);
    expect(yes).toBe(10);
    expect(await a.liveUploadBytes(accountId, 1_000)).toBe(1_000);
  });

  it('two sweeps at once fold each settled row once: the balance stays', async () => {
    const { a, b, accountId } = await twoInstances(20);
    for (let i = 0; i < 6; i++) {
      const id = newTryOnId();
      await a.reserveCredit(accountId, id, 2_000);
      await a.insertTryOn(newTryOn(accountId, `k${i}`, id), 2_000);
      await a.finishFailure(id, 'x', 2_500);
    }
    await a.reserveCredit(accountId, newTryOnId(), 2_000);
    expect(await a.balance(accountId)).toBe(19);
    const [one, two] = await Promise.all([a.sweep(100_000, 10_000), b.sweep(100_000, 10_000)]);
    expect(one + two).toBeGreaterThan(0);
    expect(await a.balance(accountId)).toBe(19);
  });
});
