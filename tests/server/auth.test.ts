/**
 * Authentication and ownership over HTTP (spec: Authentication 1-7; Errors INVALID_API_KEY,
 * INVALID_IMAGE_ID, NOT_FOUND; Account credits). One reference server for the file, plus one on a
 * file database for the "only a hash is stored" check.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { newKey, pollUntilFinal, startHarness, upload, urlBody, type Exchange, type Harness } from './harness.ts';

let h: Harness;
/** The account whose try-on, image and key the other cases aim at. */
let owner: { accountId: string; apiKey: string };
let ownerTryOnId: string;
let ownerResultUrl: string;
let ownerImageId: string;
let personJpeg: Buffer;

const keyForm = /^([a-z]+)_live_([A-Za-z0-9]+)$/;
const invalidKey = { status: 401, code: 'INVALID_API_KEY' };

beforeAll(async () => {
  h = await startHarness();
  personJpeg = await makePersonPhoto({ width: 240, height: 320 });
  owner = await newAccount();
  const start = await h.call('POST', '/api/v1/tryons', {
    key: owner.apiKey,
    json: urlBody(h),
    headers: { 'idempotency-key': newKey() },
  });
  expect(start.status, JSON.stringify(start.json)).toBe(200);
  ownerTryOnId = start.json.id;
  const final = await pollUntilFinal(h, owner.apiKey, ownerTryOnId);
  expect(final.json.status).toBe('success');
  ownerResultUrl = final.json.resultUrl;
  const uploaded = await upload(h, owner.apiKey, personJpeg);
  expect(uploaded.status).toBe(200);
  ownerImageId = uploaded.json.id;
});

afterAll(async () => h?.close());

afterEach(() => {
  expect(h.violations.splice(0)).toEqual([]);
  expect(h.refusedOutbound).toEqual([]);
});

/** A fresh account whose limits stay out of the way of these tests. */
async function newAccount(): Promise<{ accountId: string; apiKey: string }> {
  const account = await h.newAccount();
  const limits = await h.control('PUT', `/accounts/${account.accountId}/limits`, {
    startsPerMinute: 1000,
    pollsPerMinute: 1000,
    uploadsPerMinute: 1000,
  });
  expect(limits.status).toBe(200);
  return account;
}

async function credits(apiKey: string): Promise<unknown> {
  return (await h.call('GET', '/api/v1/account', { key: apiKey })).json;
}

/** A multipart body as fetch would send it, so it can go through `h.call` with any Authorization. */
async function multipart(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

/** Every API operation that takes a key, called with a raw Authorization header (or none). */
function operations(
  tryOnId: string,
): ReadonlyArray<readonly [string, (authorization: string | undefined) => Promise<Exchange>]> {
  const auth = (authorization: string | undefined): Record<string, string> =>
    authorization === undefined ? {} : { authorization };
  return [
    [
      'POST /tryons',
      (a) =>
        h.call('POST', '/api/v1/tryons', { json: urlBody(h), headers: { ...auth(a), 'idempotency-key': newKey() } }),
    ],
    [
      'POST /tryons/sync',
      (a) =>
        h.call('POST', '/api/v1/tryons/sync', {
          json: urlBody(h),
          headers: { ...auth(a), 'idempotency-key': newKey() },
        }),
    ],
    ['GET /tryons/{id}', (a) => h.call('GET', `/api/v1/tryons/${tryOnId}`, { headers: auth(a) })],
    [
      'POST /images',
      async (a) => {
        const form = new FormData();
        form.append('file', new Blob([personJpeg], { type: 'image/jpeg' }), 'person.jpg');
        const { body, contentType } = await multipart(form);
        return h.call('POST', '/api/v1/images', {
          rawBody: body,
          headers: { ...auth(a), 'content-type': contentType },
        });
      },
    ],
    ['GET /account', (a) => h.call('GET', '/api/v1/account', { headers: auth(a) })],
  ];
}

/** Calls every operation with one Authorization value; returns what each answered. */
async function everyOperation(authorization: string | undefined, tryOnId = ownerTryOnId) {
  const answers: Array<{ operation: string; status: number; code: unknown; contentType: string }> = [];
  for (const [operation, run] of operations(tryOnId)) {
    const res = await run(authorization);
    answers.push({
      operation,
      status: res.status,
      code: res.json?.code,
      contentType: String(res.headers['content-type']).split(';')[0] ?? '',
    });
  }
  return answers;
}

function all401() {
  return operations('x').map(([operation]) => ({ operation, ...invalidKey, contentType: 'application/json' }));
}

describe('missing and malformed keys', () => {
  const cases: ReadonlyArray<readonly [string, (key: string) => string | undefined]> = [
    ['no Authorization header', () => undefined],
    ['the scheme alone ("Bearer")', () => 'Bearer'],
    ['another scheme ("Basic x")', () => 'Basic x'],
    ['the valid key under the Basic scheme', (key) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
    ['the valid key without a scheme', (key) => key],
    ['a too-short key ("Bearer vto_live_short")', () => 'Bearer vto_live_short'],
    ['the valid key with another prefix', (key) => `Bearer ${key.replace(/^[a-z]+_/, 'sk_')}`],
    ['the valid key with "_test_" for "_live_"', (key) => `Bearer ${key.replace('_live_', '_test_')}`],
    [
      'a wrong secret behind a valid lookup id',
      (key) => `Bearer ${key.slice(0, -32)}${(key.endsWith('A'.repeat(32)) ? 'B' : 'A').repeat(32)}`,
    ],
    ['the valid key with one character more', (key) => `Bearer ${key}A`],
    ['the valid key with one character less', (key) => `Bearer ${key.slice(0, -1)}`],
    ['the valid key twice', (key) => `Bearer ${key} ${key}`],
  ];

  it.each(cases)('gives 401 INVALID_API_KEY for %s on every operation', async (_name, authorization) => {
    const requestsBefore = h.fixtures.requests.length;
    const creditsBefore = await credits(owner.apiKey);
    expect(await everyOperation(authorization(owner.apiKey))).toEqual(all401());
    // Nothing was fetched and nothing was charged to the owner, whose key these are made from.
    expect(h.fixtures.requests.length).toBe(requestsBefore);
    expect(await credits(owner.apiKey)).toEqual(creditsBefore);
  });
});

describe('revoked and rotated keys', () => {
  it('gives 401 INVALID_API_KEY for a revoked key on every operation', async () => {
    const account = await newAccount();
    const start = await h.call('POST', '/api/v1/tryons', {
      key: account.apiKey,
      json: urlBody(h),
      headers: { 'idempotency-key': newKey() },
    });
    expect(start.status).toBe(200);
    const revoked = await h.control('POST', `/accounts/${account.accountId}/revoke-key`);
    expect(revoked.status).toBe(200);
    expect(await everyOperation(`Bearer ${account.apiKey}`, start.json.id)).toEqual(all401());
  });

  it('gives 401 INVALID_API_KEY for a rotated-away key on every operation, and the new key works', async () => {
    const account = await newAccount();
    const start = await h.call('POST', '/api/v1/tryons', {
      key: account.apiKey,
      json: urlBody(h),
      headers: { 'idempotency-key': newKey() },
    });
    expect(start.status).toBe(200);
    const rotated = await h.control('POST', `/accounts/${account.accountId}/rotate-key`);
    expect(rotated.status).toBe(200);
    expect(await everyOperation(`Bearer ${account.apiKey}`, start.json.id)).toEqual(all401());
    // The new key reads the same account's try-on.
    const read = await pollUntilFinal(h, rotated.json.apiKey, start.json.id);
    expect(read.status).toBe(200);
    expect(read.json.id).toBe(start.json.id);
  });

  it('rotate-key gives a new working key and adds no credits', async () => {
    const account = await newAccount();
    const start = await h.call('POST', '/api/v1/tryons', {
      key: account.apiKey,
      json: urlBody(h),
      headers: { 'idempotency-key': newKey() },
    });
    expect(start.status).toBe(200);
    expect((await pollUntilFinal(h, account.apiKey, start.json.id)).json.status).toBe('success');
    expect(await credits(account.apiKey)).toEqual({ credits: 19 });

    const first = await h.control('POST', `/accounts/${account.accountId}/rotate-key`);
    const second = await h.control('POST', `/accounts/${account.accountId}/rotate-key`);
    expect([first.status, second.status]).toEqual([200, 200]);
    const keys = [account.apiKey, first.json.apiKey, second.json.apiKey];
    expect(new Set(keys).size).toBe(3);
    expect(await credits(second.json.apiKey)).toEqual({ credits: 19 });
    expect((await h.call('GET', '/api/v1/account', { key: first.json.apiKey })).status).toBe(401);

    // The newest key starts and finishes a try-on on the same balance.
    const next = await h.call('POST', '/api/v1/tryons', {
      key: second.json.apiKey,
      json: urlBody(h),
      headers: { 'idempotency-key': newKey() },
    });
    expect(next.status).toBe(200);
    expect((await pollUntilFinal(h, second.json.apiKey, next.json.id)).json.status).toBe('success');
    expect(await credits(second.json.apiKey)).toEqual({ credits: 18 });
  });
});

describe('accounts and keys', () => {
  it('gives a new account exactly 20 credits', async () => {
    const created = await h.control('POST', '/accounts');
    expect(created.status).toBe(200);
    expect(created.json.credits).toBe(20);
    expect(await credits(created.json.apiKey)).toEqual({ credits: 20 });
  });

  it('issues keys of the form <prefix>_live_<secret>, one prefix for all, a new secret each time', async () => {
    const account = await newAccount();
    const rotated = await h.control('POST', `/accounts/${account.accountId}/rotate-key`);
    const other = await h.newAccount();
    const keys = [account.apiKey, rotated.json.apiKey, other.apiKey, owner.apiKey] as string[];
    const parts = keys.map((key) => keyForm.exec(key));
    expect(parts.every((m) => m !== null)).toBe(true);
    expect(new Set(parts.map((m) => m?.[1])).size).toBe(1);
    expect(new Set(parts.map((m) => m?.[2])).size).toBe(keys.length);
    // A secret long enough not to be guessed (at least 128 bits of base62).
    expect(parts.every((m) => (m?.[2]?.length ?? 0) >= 22)).toBe(true);
  });
});

describe('ownership', () => {
  it("serves result images without a key, even with another account's or a bad Authorization header", async () => {
    const path = new URL(ownerResultUrl).pathname;
    const stranger = await newAccount();
    for (const headers of [
      {},
      { authorization: `Bearer ${stranger.apiKey}` },
      { authorization: 'Bearer vto_live_short' },
    ]) {
      const res = await h.call('GET', path, { headers });
      expect(res.status).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^image\/(jpeg|png)/);
      expect(res.body.length).toBeGreaterThan(0);
    }
  });

  it("gives 400 INVALID_IMAGE_ID for another account's image id, on both create endpoints and as either image", async () => {
    const intruder = await newAccount();
    const bodies = [
      { personImageId: ownerImageId, garmentImageUrl: h.fixtures.url('/f/garment.png'), consent: true },
      { personImageUrl: h.fixtures.url('/f/person.jpg'), garmentImageId: ownerImageId, consent: true },
      { personImageId: ownerImageId, garmentImageId: ownerImageId, consent: true },
    ];
    const answers = [];
    for (const path of ['/api/v1/tryons', '/api/v1/tryons/sync']) {
      for (const json of bodies) {
        const res = await h.call('POST', path, {
          key: intruder.apiKey,
          json,
          headers: { 'idempotency-key': newKey() },
        });
        answers.push({ path, status: res.status, code: res.json?.code });
      }
    }
    expect(answers).toEqual(
      ['/api/v1/tryons', '/api/v1/tryons/sync'].flatMap((path) =>
        bodies.map(() => ({ path, status: 400, code: 'INVALID_IMAGE_ID' })),
      ),
    );
    expect(await credits(intruder.apiKey)).toEqual({ credits: 20 });
    // The owner can still use it.
    const own = await h.call('POST', '/api/v1/tryons', {
      key: owner.apiKey,
      json: { ...bodies[2] },
      headers: { 'idempotency-key': newKey() },
    });
    expect(own.status).toBe(200);
    expect((await pollUntilFinal(h, owner.apiKey, own.json.id)).json.status).toBe('success');
  });

  it("gives 404 NOT_FOUND for another account's try-on id, exactly as for an unknown id", async () => {
    const intruder = await newAccount();
    const foreign = await h.call('GET', `/api/v1/tryons/${ownerTryOnId}`, { key: intruder.apiKey });
    const unknown = await h.call('GET', '/api/v1/tryons/ton_doesNotExist0000000', { key: intruder.apiKey });
    expect({ status: foreign.status, code: foreign.json?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(foreign.json).toEqual(unknown.json);
    // The owner still reads it.
    expect((await h.call('GET', `/api/v1/tryons/${ownerTryOnId}`, { key: owner.apiKey })).status).toBe(200);
  });
});

describe('key storage', () => {
  it('stores only a hash of each key in the database, never the key or its secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tryon-auth-'));
    const dbPath = join(dir, 'store.db');
    const fileHarness = await startHarness({ dbPath });
    const issued: string[] = [];
    try {
      const account = await fileHarness.newAccount();
      issued.push(account.apiKey);
      const rotated = await fileHarness.control('POST', `/accounts/${account.accountId}/rotate-key`);
      issued.push(rotated.json.apiKey);
      const other = await fileHarness.newAccount();
      issued.push(other.apiKey);
      // The keys work before the server closes.
      for (const key of issued.slice(1))
        expect((await fileHarness.call('GET', '/api/v1/account', { key })).status).toBe(200);
      expect(fileHarness.violations).toEqual([]);
    } finally {
      await fileHarness.close();
    }
    try {
      const db = new Database(dbPath, { readonly: true });
      const rows = db.prepare('SELECT * FROM api_keys').all() as Array<Record<string, unknown>>;
      db.close();
      expect(rows).toHaveLength(3);
      const secrets = issued.map((key) => key.slice(-32));
      for (const row of rows) {
        for (const value of Object.values(row)) {
          const text = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
          for (const key of issued) expect(text).not.toContain(key);
          for (const secret of secrets) expect(text).not.toContain(secret);
        }
        // The stored hash is a fixed-size digest, not the key in some other encoding.
        expect(Buffer.isBuffer(row.hash)).toBe(true);
        expect((row.hash as Buffer).length).toBe(32);
      }
      // Nor anywhere else in the database files.
      for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`].filter((f) => existsSync(f))) {
        const bytes = readFileSync(file).toString('latin1');
        for (const key of issued) expect(bytes).not.toContain(key);
        for (const secret of issued.map((k) => k.slice(-32))) expect(bytes).not.toContain(secret);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
