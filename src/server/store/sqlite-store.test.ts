import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store.ts';
import type { NewTryOnInput, Store } from './store.ts';

const hour = 3_600_000;
const person = Buffer.from('person bytes');
const garment = Buffer.from('garment bytes');
const stores: Store[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(path = ':memory:'): Store {
  const store = openSqliteStore(path);
  stores.push(store);
  return store;
}

async function upload(store: Store, accountId: string, id: string, bytes: Buffer, now = 0): Promise<void> {
  expect(
    await store.insertImage(
      { id, accountId, format: 'jpeg', bytes, scenario: null, createdAt: now, expiresAt: now + 24 * hour },
      1 << 30,
    ),
  ).toBe(true);
}

async function insert(
  store: Store,
  accountId: string,
  id: string,
  inputs: { person: NewTryOnInput; garment: NewTryOnInput },
  now = 0,
): Promise<void> {
  expect(await store.reserveCredit(accountId, id, now)).toBe(true);
  await store.insertTryOn(
    {
      id,
      accountId,
      scenario: null,
      title: null,
      inputs,
      idempotency: { key: `key-${id}`, fingerprint: 'f', expiresAt: now + hour },
    },
    now,
  );
}

const result = (file: string) => ({ file, format: 'png' as const, bytes: Buffer.from('result'), expiresAt: 24 * hour });

describe('try-on inputs in the SQLite store', () => {
  it('gives back an input kept as the uploaded image it names, and one kept as bytes, alike', async () => {
    const store = open();
    const account = await store.createAccount(0, 5);
    await upload(store, account, 'img_p', person);
    await insert(store, account, 'tr_1', { person: { imageId: 'img_p' }, garment: { bytes: garment } });
    expect(await store.inputsOf('tr_1')).toEqual({ person, garment });
  });

  it('keeps an upload a pending try-on names past its expiry, and sweeps it once the try-on is final', async () => {
    const store = open();
    const account = await store.createAccount(0, 5);
    await upload(store, account, 'img_p', person);
    await upload(store, account, 'img_g', garment);
    await upload(store, account, 'img_other', garment);
    await insert(store, account, 'tr_1', { person: { imageId: 'img_p' }, garment: { imageId: 'img_g' } });

    const retention = 30 * 24 * hour;
    await store.sweep(48 * hour, retention);
    expect(await store.findImage('img_other')).toBeUndefined();
    expect(await store.inputsOf('tr_1')).toEqual({ person, garment });

    expect(await store.finishSuccess('tr_1', result('r1.png'), 48 * hour)).toBe(true);
    expect(await store.inputsOf('tr_1')).toBeUndefined();
    await store.sweep(48 * hour, retention);
    expect(await store.findImage('img_p')).toBeUndefined();
    expect(await store.findImage('img_g')).toBeUndefined();
  });

  it('has no inputs for a try-on whose named upload was deleted (generation then fails it)', async () => {
    const store = open();
    const account = await store.createAccount(0, 5);
    await upload(store, account, 'img_p', person);
    await store.sweep(48 * hour, 30 * 24 * hour);
    await insert(store, account, 'tr_1', { person: { imageId: 'img_p' }, garment: { bytes: garment } });
    expect(await store.inputsOf('tr_1')).toBeUndefined();
  });

  it('opens a store file whose inputs were all kept as bytes, and keeps its pending try-ons', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-migrate-'));
    dirs.push(dir);
    const path = join(dir, 'old.db');
    const old = new Database(path);
    old.exec(`CREATE TABLE tryons (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, status TEXT NOT NULL, scenario TEXT, title TEXT,
        created_at INTEGER NOT NULL, finished_at INTEGER, result_file TEXT, message TEXT);
      CREATE TABLE tryon_inputs (tryon_id TEXT PRIMARY KEY REFERENCES tryons(id), person BLOB NOT NULL, garment BLOB NOT NULL);
      INSERT INTO tryons (id, account_id, status, created_at) VALUES ('tr_old', 'acct', 'pending', 0);`);
    old.prepare('INSERT INTO tryon_inputs VALUES (?, ?, ?)').run('tr_old', person, garment);
    old.close();

    const store = open(path);
    expect(await store.pendingTryOnIds()).toEqual(['tr_old']);
    expect(await store.inputsOf('tr_old')).toEqual({ person, garment });
    const account = await store.createAccount(0, 5);
    await upload(store, account, 'img_p', person);
    await insert(store, account, 'tr_new', { person: { imageId: 'img_p' }, garment: { bytes: garment } });
    expect(await store.inputsOf('tr_new')).toEqual({ person, garment });
  });
});
