/**
 * The store's database file: private to its owner (mode 600 for the file, -wal and -shm, whatever
 * the umask, and for a file made before), and a sweep gives the space it freed back.
 */
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { giveBackFreePages, openDatabaseFile } from './sqlite-file.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { expiredUploadKeptMs } from './sqlite-sweep.ts';
import type { Store } from './store.ts';

const day = 24 * 3_600_000;
const stores: Store[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-file-'));
  dirs.push(dir);
  return join(dir, 'store.db');
}

function open(path: string): Store {
  const store = openSqliteStore(path);
  stores.push(store);
  return store;
}

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);
const modes = (path: string) => ['', '-wal', '-shm'].map((suffix) => modeOf(`${path}${suffix}`));

/** Reads one pragma through a second connection, as another process would see the file. */
function pragma(path: string, name: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma(name, { simple: true }) as number;
  } finally {
    db.close();
  }
}

async function fill(store: Store, count: number): Promise<string> {
  const account = await store.createAccount(0, 0);
  for (let i = 0; i < count; i++) {
    const bytes = Buffer.alloc(100_000, i);
    const image = {
      id: `img_${i}`,
      accountId: account,
      format: 'jpeg' as const,
      bytes,
      scenario: null,
      createdAt: 0,
      expiresAt: day,
    };
    expect(await store.insertImage(image, 1 << 30)).toBe(true);
  }
  return account;
}

describe('the database file', () => {
  it('is created mode 600 with its -wal and -shm, even under umask 000', async () => {
    const path = tempPath();
    const before = process.umask(0);
    try {
      await fill(open(path), 1);
    } finally {
      process.umask(before);
    }
    expect(modes(path)).toEqual(['600', '600', '600']);
  });

  it('makes a file from before private too, and turns incremental vacuum on for it, keeping its data', async () => {
    const path = tempPath();
    const old = new Database(path);
    old.pragma('journal_mode = WAL');
    old.exec(`CREATE TABLE accounts (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, limits TEXT);
      INSERT INTO accounts VALUES ('acct_old', 0, NULL);`);
    old.close();
    chmodSync(path, 0o644);
    expect(pragma(path, 'auto_vacuum')).toBe(0);

    const store = open(path);
    await fill(store, 1);
    expect(modes(path)).toEqual(['600', '600', '600']);
    expect(pragma(path, 'auto_vacuum')).toBe(2);
    expect(await store.accountExists('acct_old')).toBe(true);
  });

  it('gives the pages of swept uploads back: the page count and the file shrink, and no page is left free', async () => {
    const path = tempPath();
    const store = open(path);
    await fill(store, 40);
    const pagesBefore = pragma(path, 'page_count');
    const pageSize = pragma(path, 'page_size');
    expect(pagesBefore * pageSize).toBeGreaterThan(4_000_000);

    expect(await store.sweep(day + expiredUploadKeptMs, 30 * day)).toBe(40);
    const pagesAfter = pragma(path, 'page_count');
    const freed = (pagesBefore - pagesAfter) * pageSize;
    expect({ freed: freed > 3_900_000, free: pragma(path, 'freelist_count') }).toEqual({ freed: true, free: 0 });
    const onDisk = statSync(path).size + statSync(`${path}-wal`).size;
    expect(onDisk).toBeLessThan(1_000_000);
  });

  it('gives back at most its bound of pages at a time, and the rest at the next calls', async () => {
    const path = tempPath();
    const db = openDatabaseFile(path);
    try {
      db.exec('CREATE TABLE blobs (b BLOB)');
      const insert = db.prepare('INSERT INTO blobs VALUES (?)');
      for (let i = 0; i < 20; i++) insert.run(Buffer.alloc(100_000, i));
      db.exec('DELETE FROM blobs');
      const free = db.pragma('freelist_count', { simple: true }) as number;
      const bound = 100 * (db.pragma('page_size', { simple: true }) as number);
      expect(free).toBeGreaterThan(300);
      const steps: number[] = [];
      for (let pages = giveBackFreePages(db, bound); pages > 0; pages = giveBackFreePages(db, bound)) steps.push(pages);
      expect(steps.slice(0, 3)).toEqual([100, 100, 100]);
      expect(steps.reduce((a, b) => a + b, 0)).toBe(free);
      expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    } finally {
      db.close();
    }
  });
});
