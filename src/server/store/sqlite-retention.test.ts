/**
 * The SQLite store's storage quota and retention sweep, at the Store interface: uploads count
 * against their account's quota until their id expires, and the sweep deletes rows past retention
 * while every balance, refund and crash release stays what it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store.ts';
import { expiredUploadKeptMs } from './sqlite-sweep.ts';
import type { ImageRecord, Store } from './store.ts';

const hour = 3_600_000;
const day = 24 * hour;
const retention = 30 * day;
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

const image = (id: string, accountId: string, size: number, at: number): ImageRecord => ({
  id,
  accountId,
  format: 'jpeg',
  bytes: Buffer.alloc(size, 1),
  scenario: null,
  createdAt: at,
  expiresAt: at + day,
});

async function start(store: Store, accountId: string, id: string, now: number): Promise<void> {
  expect(await store.reserveCredit(accountId, id, now)).toBe(true);
  const bytes = { bytes: Buffer.from('input') };
  const idempotency = { key: `key-${id}`, fingerprint: 'f', expiresAt: now + day };
  await store.insertTryOn(
    { id, accountId, scenario: null, title: null, inputs: { person: bytes, garment: bytes }, idempotency },
    now,
  );
}

const result = (file: string, now: number) => ({
  file,
  format: 'png' as const,
  bytes: Buffer.alloc(10_000, 2),
  expiresAt: now + day,
});

describe('the storage quota of uploads', () => {
  it('stores an upload only while the live uploads and it fit the quota, and counts each until its id expires', async () => {
    const { store } = openFile();
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
});

describe('the retention sweep', () => {
  it('deletes results once their URL expired and uploads an hour after their id expired, and not before', async () => {
    const { store, rows } = openFile();
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
    await store.sweep(day + expiredUploadKeptMs - 1, retention);
    expect(rows('images')).toBe(1);
    expect(await store.sweep(day + expiredUploadKeptMs, retention)).toBe(1);
    const found = [
      await store.findImage('img_a'),
      await store.findResult('r1.png'),
      await store.findIdempotency(account, 'key-tr_1', 0),
    ];
    expect(found).toEqual([undefined, undefined, undefined]);
    expect([rows('images'), rows('results'), rows('idempotency')]).toEqual([0, 0, 0]);
    expect((await store.findTryOn('tr_1'))?.status).toBe('success');
  });

  it('deletes final try-ons after the record retention and folds their ledger rows into one row per account, balance unchanged', async () => {
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

    await store.sweep(hour + retention - 1, retention);
    expect((await store.findTryOn('tr_ok'))?.status).toBe('success');
    await store.sweep(hour + retention, retention);
    expect(await Promise.all(['tr_ok', 'tr_failed', 'tr_other'].map((id) => store.findTryOn(id)))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect([await store.balance(account), await store.balance(other)]).toEqual(balances);
    const ledgerRows = (id: string) => rows('ledger WHERE account_id = ?', id);
    expect([ledgerRows(account), ledgerRows(other), rows('tryons')]).toEqual([1, 1, 0]);
    // A crash recovery after the fold finds no orphan to release: nothing is given back twice.
    expect(await store.releaseOrphanReservations(hour + retention)).toBe(0);
    expect([await store.balance(account), await store.balance(other)]).toEqual(balances);

    // Later rows fold into the same carry-forward row.
    await start(store, account, 'tr_later', 2 * retention);
    expect(await store.finishSuccess('tr_later', result('l.png', 2 * retention), 2 * retention)).toBe(true);
    await store.sweep(3 * retention, retention);
    expect([await store.balance(account), rows('ledger WHERE account_id = ?', account)]).toEqual([29, 1]);
  });

  it('keeps the reservation of a pending try-on and of a start under way, so each can still be given back once', async () => {
    const { store, rows } = openFile();
    const account = await store.createAccount(0, 20);
    await start(store, account, 'tr_pending', 0);
    expect(await store.reserveCredit(account, 'tr_starting', 0)).toBe(true);
    await store.sweep(10 * retention, retention);
    expect((await store.findTryOn('tr_pending'))?.status).toBe('pending');
    expect(rows("ledger WHERE kind = 'reserve'")).toBe(2);
    expect(await store.balance(account)).toBe(18);
    expect(await store.finishFailure('tr_pending', 'no', 10 * retention)).toBe(true);
    expect(await store.returnCredit('tr_starting', 'release', 10 * retention)).toBe(true);
    expect(await store.returnCredit('tr_starting', 'release', 10 * retention)).toBe(false);
    expect(await store.balance(account)).toBe(20);
    await store.sweep(20 * retention, retention);
    expect([await store.balance(account), rows('ledger'), rows('tryons')]).toEqual([20, 1, 0]);
  });
});
