/**
 * Retention over HTTP, on the server clock (test control moves it, and each move runs the sweep).
 * Spec: "Uploaded files are deleted automatically within 35 days"; an uploaded id is "permanently
 * invalid" 24 hours after upload; resultUrl is "valid for 24 hours". The reference server deletes an
 * upload once its id expired, a result once its URL expired, and a final try-on 30 days after it
 * ended, with its ledger rows folded so the balance stays; the freed space goes back to the file
 * system. The database files are private to their owner (mode 600), person photos being in them.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExactSize, makePersonPhoto } from '../../src/fixtures/images.ts';
import { newKey, pollUntilFinal, startHarness, upload, urlBody, type Harness } from './harness.ts';

const day = 24 * 3600;
let h: Harness;
let onFile: Harness;
let dir: string;
let dbPath: string;

beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'retention-'));
  dbPath = join(dir, 'server.db');
  onFile = await startHarness({ dbPath });
});
afterAll(async () => {
  await h?.close();
  await onFile?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Reads the server's database file through a second, read-only connection. */
function inFile<T>(read: (db: Database.Database) => T): T {
  const db = new Database(dbPath, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const count = (sql: string, ...params: unknown[]): number =>
  inFile((db) => (db.prepare(`SELECT COUNT(*) AS n FROM ${sql}`).get(...params) as { n: number }).n);
const pages = () =>
  inFile((db) => {
    const pragma = (name: string) => db.pragma(name, { simple: true }) as number;
    return { count: pragma('page_count'), free: pragma('freelist_count'), size: pragma('page_size') };
  });

describe('retention', () => {
  it('deletes an uploaded file within 35 days, and keeps it for the first 24 hours', async () => {
    const { apiKey } = await h.newAccount();
    const res = await upload(h, apiKey, await makePersonPhoto());
    const id: string = res.json.id;
    const stored = async () => (await h.server.context.store.findImage(id))?.bytes ?? null;
    expect(await stored()).not.toBeNull();
    await h.control('POST', '/clock/advance', { seconds: 23 * 3600 });
    expect(await stored()).not.toBeNull();
    await h.control('POST', '/clock/advance', { seconds: 35 * 24 * 3600 - 23 * 3600 });
    expect(await stored()).toBeNull();
    expect(h.violations).toEqual([]);
  });

  it('creates the database file and its -wal and -shm mode 600', () => {
    const modes = ['', '-wal', '-shm'].map((suffix) => (statSync(`${dbPath}${suffix}`).mode & 0o777).toString(8));
    expect(modes).toEqual(['600', '600', '600']);
  });

  it('deletes the rows and bytes of uploads an hour after their id expired, and gives the space back to the file system', async () => {
    const { accountId, apiKey } = await onFile.newAccount();
    const image = await makeExactSize(500_000, 'jpeg');
    for (let i = 0; i < 8; i++) expect((await upload(onFile, apiKey, image)).status).toBe(200);
    const before = pages();
    expect(count('images WHERE account_id = ?', accountId)).toBe(8);

    expect((await onFile.control('POST', '/clock/advance', { seconds: day - 60 })).status).toBe(200);
    expect(count('images WHERE account_id = ?', accountId)).toBe(8);
    expect((await onFile.control('POST', '/clock/advance', { seconds: 61 })).status).toBe(200);
    // Expired, refused by the lifetime check, and kept an hour before the sweep deletes it.
    expect(count('images WHERE account_id = ?', accountId)).toBe(8);
    expect((await onFile.control('POST', '/clock/advance', { seconds: 3600 })).status).toBe(200);
    expect(count('images WHERE account_id = ?', accountId)).toBe(0);
    const after = pages();
    const freedBytes = (before.count - after.count) * before.size;
    expect({ freedAll: freedBytes >= 8 * 500_000, freePages: after.free }).toEqual({ freedAll: true, freePages: 0 });
    expect(statSync(dbPath).size).toBeLessThan(before.count * before.size - 8 * 500_000 + 1);
    expect(onFile.violations).toEqual([]);
  });

  it('deletes a result once its URL expired and the try-on 30 days after it ended, with the balance unchanged', async () => {
    const { accountId, apiKey } = await onFile.newAccount();
    const headers = { 'idempotency-key': newKey() };
    const started = await onFile.call('POST', '/api/v1/tryons', { key: apiKey, json: urlBody(onFile), headers });
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    const id: string = started.json.id;
    const final = await pollUntilFinal(onFile, apiKey, id);
    expect(final.json.status).toBe('success');
    const resultPath = new URL(final.json.resultUrl).pathname;
    expect((await onFile.call('GET', resultPath)).status).toBe(200);
    const credits = async () => (await onFile.call('GET', '/api/v1/account', { key: apiKey })).json.credits;
    expect(await credits()).toBe(19);

    expect((await onFile.control('POST', '/clock/advance', { seconds: day + 60 })).status).toBe(200);
    expect((await onFile.call('GET', resultPath)).status).toBe(404);
    expect(count('results WHERE tryon_id = ?', id)).toBe(0);
    expect((await onFile.call('GET', `/api/v1/tryons/${id}`, { key: apiKey })).json.status).toBe('success');

    expect((await onFile.control('POST', '/clock/advance', { seconds: 29 * day })).status).toBe(200);
    const gone = await onFile.call('GET', `/api/v1/tryons/${id}`, { key: apiKey });
    expect({ status: gone.status, code: gone.json.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect([count('tryons WHERE id = ?', id), count('ledger WHERE account_id = ?', accountId)]).toEqual([0, 1]);
    expect(await credits()).toBe(19);
    expect(onFile.violations).toEqual([]);
  });
});
