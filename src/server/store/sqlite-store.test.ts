/**
 * What only the SQLite store has: opening a store file from before a migration. What every store
 * promises (inputs kept as bytes or as the upload they name, and the rest) is store-contract.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store.ts';
import { image, start } from './store-contract-fixtures.ts';
import type { Store } from './store.ts';

const person = Buffer.from('person bytes');
const garment = Buffer.from('garment bytes');
const stores: Store[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('try-on inputs in the SQLite store', () => {
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

    const store = openSqliteStore(path);
    stores.push(store);
    expect(await store.pendingTryOnIds()).toEqual(['tr_old']);
    expect(await store.inputsOf('tr_old')).toEqual({ person, garment });
    const account = await store.createAccount(0, 5);
    expect(await store.insertImage({ ...image('img_p', account, 0, 0), bytes: person }, 1 << 30)).toBe(true);
    await start(store, account, 'tr_new', 0, { person: { imageId: 'img_p' }, garment: { bytes: garment } });
    expect(await store.inputsOf('tr_new')).toEqual({ person, garment });
  });
});
