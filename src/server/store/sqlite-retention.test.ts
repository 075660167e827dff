/**
 * The SQLite store's retention sweep, seen in its file: the rows past retention are gone, and the ledger rows
 * an account settled fold into one carry-forward row. What the sweep promises at the Store interface (balances,
 * refunds and crash releases stay what they were; the storage quota) is store-contract.ts, run on SQLite too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store.ts';
import { expiredUploadKeptMs } from './sqlite-sweep.ts';
import { day, hour, image, result, retention, start } from './store-contract-fixtures.ts';
import type { Store } from './store.ts';

const stores: Store[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A store in a file, and a second connection to read its tables. */
function openFile(): { store: Store; rows: (sql: string, ...params: unknown[]) => number } {
  const dir = mkdtempSync(join(tmpdir(), 'store-retention-'));
  dirs.push(dir);
  const path = join(dir, 'store.db');
  const store = openSqliteStore(path);
  stores.push(store);
  const rows = (sql: string, ...params: unknown[]): number => {
    const db = new Database(path, { readonly: true });
    try {
      return (db.prepare(`SELECT COUNT(*) AS n FROM ${sql}`).get(...params) as { n: number }).n;
    } finally {
      db.close();
    }
  };
  return { store, rows };
}

describe('the retention sweep in the SQLite file', () => {
  it('deletes the rows of results, uploads and key bindings past retention, and not before', async () => {
    const { store, rows } = openFile();
    const account = await store.createAccount(0, 5);
    expect(await store.insertImage(image('img_a', account, 50_000, 0), 1 << 30)).toBe(true);
    await start(store, account, 'tr_1', 0);
    expect(await store.finishSuccess('tr_1', result('r1.png', 0), 0)).toBe(true);
    await store.sweep(day - 1, retention);
    expect([rows('images'), rows('results'), rows('idempotency')]).toEqual([1, 1, 1]);
    expect(await store.sweep(day, retention)).toBe(2);
    await store.sweep(day + expiredUploadKeptMs - 1, retention);
    expect(rows('images')).toBe(1);
    expect(await store.sweep(day + expiredUploadKeptMs, retention)).toBe(1);
    expect([rows('images'), rows('results'), rows('idempotency'), rows('tryons')]).toEqual([0, 0, 0, 1]);
  });

  it('folds the ledger rows of final try-ons past retention into one row per account, balance unchanged', async () => {
    const { store, rows } = openFile();
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

    await store.sweep(hour + retention, retention);
    const ledgerRows = (id: string) => rows('ledger WHERE account_id = ?', id);
    expect([ledgerRows(account), ledgerRows(other), rows('tryons')]).toEqual([1, 1, 0]);
    expect(await store.releaseOrphanReservations(hour + retention)).toBe(0);
    expect([await store.balance(account), await store.balance(other)]).toEqual(balances);

    // Later rows fold into the same carry-forward row.
    await start(store, account, 'tr_later', 2 * retention);
    expect(await store.finishSuccess('tr_later', result('l.png', 2 * retention), 2 * retention)).toBe(true);
    await store.sweep(3 * retention, retention);
    expect([await store.balance(account), rows('ledger WHERE account_id = ?', account)]).toEqual([29, 1]);
  });

  it('keeps the reservation rows of a pending try-on and of a start under way until they are settled', async () => {
    const { store, rows } = openFile();
    const account = await store.createAccount(0, 20);
    await start(store, account, 'tr_pending', 0);
    expect(await store.reserveCredit(account, 'tr_starting', 0)).toBe(true);
    await store.sweep(10 * retention, retention);
    expect(rows("ledger WHERE kind = 'reserve'")).toBe(2);
    expect(await store.finishFailure('tr_pending', 'no', 10 * retention)).toBe(true);
    expect(await store.returnCredit('tr_starting', 'release', 10 * retention)).toBe(true);
    await store.sweep(20 * retention, retention);
    expect([await store.balance(account), rows('ledger'), rows('tryons')]).toEqual([20, 1, 0]);
  });
});
