/**
 * Idempotency-Key over HTTP (spec: POST /tryons rules 3-4, Errors rule 2; openapi.yaml
 * x-point idempotency-retention, idempotency-in-flight, idempotency-different-body, sync-pick-up).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newKey, startHarness, urlBody, type Exchange, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());
afterEach(() => {
  expect(h.violations).toEqual([]);
});

const create = (key: string, idemKey: string, json: unknown) =>
  h.call('POST', '/api/v1/tryons', { key, json, headers: { 'idempotency-key': idemKey } });
const createSync = (key: string, idemKey: string, json: unknown) =>
  h.call('POST', '/api/v1/tryons/sync', { key, json, headers: { 'idempotency-key': idemKey } });
const credits = async (key: string): Promise<number> => {
  const res = await h.call('GET', '/api/v1/account', { key });
  expect(res.status).toBe(200);
  return res.json.credits as number;
};

/** Polls slowly enough to stay far below 60 polls a minute. */
async function waitFinal(key: string, id: string, timeoutMs = 10_000): Promise<Exchange> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await h.call('GET', `/api/v1/tryons/${id}`, { key });
    if (res.status !== 200 || res.json.status !== 'pending' || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A raw account with limits high enough for bursts. */
async function burstAccount(): Promise<{ accountId: string; apiKey: string }> {
  const account = await h.newAccount();
  const res = await h.control('PUT', `/accounts/${account.accountId}/limits`, {
    startsPerMinute: 1000,
    pollsPerMinute: 1000,
  });
  expect(res.status).toBe(200);
  return account;
}

describe('Idempotency-Key', () => {
  it('replays the first try-on for a reused Idempotency-Key, without a second charge', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const body = urlBody(h);
    const first = await create(apiKey, key, body);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await credits(apiKey)).toBe(19);

    const second = await create(apiKey, key, body);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json).toEqual(first.json);
    expect(second.json.id).toBe(first.json.id);
    expect(await credits(apiKey)).toBe(19);

    // Still a replay after the try-on has finished, and still the original create body.
    expect((await waitFinal(apiKey, first.json.id)).json.status).toBe('success');
    const third = await create(apiKey, key, body);
    expect(third.status).toBe(200);
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.json).toEqual(first.json);
    expect(await credits(apiKey)).toBe(19);
  });

  it('treats a body with other key order and whitespace as the same body', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const body = urlBody(h, undefined, { title: 'Linen shirt' });
    const first = await create(apiKey, key, body);
    expect(first.status, JSON.stringify(first.json)).toBe(200);

    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const raw = `\n  ${JSON.stringify(reordered, null, 4).replace(/": /g, '"  :\t')}\n\t`;
    expect(raw).not.toBe(JSON.stringify(body));
    const second = await h.call('POST', '/api/v1/tryons', {
      key: apiKey,
      rawBody: raw,
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
    });
    expect(second.status, JSON.stringify(second.json)).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json.id).toBe(first.json.id);
    expect(await credits(apiKey)).toBe(19);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with a different body, without a charge', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const first = await create(apiKey, key, urlBody(h));
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(await credits(apiKey)).toBe(19);

    for (const different of [urlBody(h, undefined, { title: 'Another title' }), urlBody(h, 'generation-fails')]) {
      for (const send of [create, createSync]) {
        const res = await send(apiKey, key, different);
        expect(res.status, JSON.stringify(res.json)).toBe(422);
        expect(res.json.code).toBe('IDEMPOTENCY_KEY_REUSED');
        expect(res.headers['idempotent-replayed']).toBeUndefined();
      }
    }
    expect(await credits(apiKey)).toBe(19);
    // The key still belongs to the first try-on.
    const again = await create(apiKey, key, urlBody(h));
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(first.json.id);
  });

  it('scopes keys to the account: two accounts may use the same key independently', async () => {
    const a = await h.newAccount();
    const b = await h.newAccount();
    const key = newKey();
    const ra = await create(a.apiKey, key, urlBody(h));
    const rb = await create(b.apiKey, key, urlBody(h));
    expect(ra.status, JSON.stringify(ra.json)).toBe(200);
    expect(rb.status, JSON.stringify(rb.json)).toBe(200);
    expect(rb.headers['idempotent-replayed']).toBeUndefined();
    expect(rb.json.id).not.toBe(ra.json.id);
    expect(await credits(a.apiKey)).toBe(19);
    expect(await credits(b.apiKey)).toBe(19);
    // Each account reads only its own try-on.
    expect((await h.call('GET', `/api/v1/tryons/${ra.json.id}`, { key: b.apiKey })).status).toBe(404);
    // B with a different body under the same key is judged against B's own binding.
    const rbOther = await create(b.apiKey, key, urlBody(h, undefined, { title: 'B only' }));
    expect(rbOther.status).toBe(422);
    expect(rbOther.json.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps parallel requests of different accounts with one key apart', async () => {
    const accounts = await Promise.all(Array.from({ length: 10 }, () => h.newAccount()));
    const key = newKey();
    const answers = await Promise.all(accounts.map((a) => create(a.apiKey, key, urlBody(h))));
    for (const r of answers) {
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect(r.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(new Set(answers.map((r) => r.json.id)).size).toBe(10);
    for (const a of accounts) expect(await credits(a.apiKey)).toBe(19);
  });

  it('replays an earlier try-on even when the balance is now 0', async () => {
    const { accountId, apiKey } = await h.newAccount();
    const key = newKey();
    const body = urlBody(h);
    const first = await create(apiKey, key, body);
    expect(first.status).toBe(200);
    expect((await h.control('PUT', `/accounts/${accountId}/credits`, { credits: 0 })).status).toBe(200);
    const replay = await create(apiKey, key, body);
    expect(replay.status, JSON.stringify(replay.json)).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json.id).toBe(first.json.id);
    const syncReplay = await createSync(apiKey, key, body);
    expect(syncReplay.status, JSON.stringify(syncReplay.json)).toBe(200);
    expect(syncReplay.json.id).toBe(first.json.id);
    expect(await credits(apiKey)).toBe(0);
    // A new key, by contrast, is refused.
    expect((await create(apiKey, newKey(), body)).status).toBe(402);
  });

  it('creates exactly one try-on and one charge for 100 parallel requests with one key', async () => {
    const { apiKey } = await burstAccount();
    const key = newKey();
    const body = urlBody(h);
    const answers = await Promise.all(Array.from({ length: 100 }, () => create(apiKey, key, body)));

    const ok = answers.filter((r) => r.status === 200);
    const inUse = answers.filter((r) => r.status === 409);
    expect(ok.length + inUse.length, JSON.stringify(answers.map((r) => [r.status, r.json?.code]))).toBe(100);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.json.id)).size).toBe(1);
    expect(ok.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    for (const r of inUse) {
      expect(r.json.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(String(r.headers['retry-after'])).toMatch(/^\d+$/);
    }
    expect(await credits(apiKey)).toBe(19);

    // After the in-flight window every retry is a replay of that one try-on.
    const retry = await create(apiKey, key, body);
    expect(retry.status).toBe(200);
    expect(retry.json.id).toBe(ok[0]?.json.id);
    expect((await waitFinal(apiKey, retry.json.id)).json.status).toBe('success');
    expect(await credits(apiKey)).toBe(19);
  });

  it('creates exactly one try-on for 100 parallel requests with one key spread over both endpoints', async () => {
    const { apiKey } = await burstAccount();
    const key = newKey();
    const body = urlBody(h);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? createSync : create)(apiKey, key, body)),
    );
    const ids = new Set<string>();
    for (const r of answers) {
      if (r.status === 409) {
        expect(r.json.code).toBe('IDEMPOTENCY_KEY_IN_USE');
        expect(String(r.headers['retry-after'])).toMatch(/^\d+$/);
        continue;
      }
      // POST /tryons answers 200 pending; POST /tryons/sync answers 200 with the final state (or 202).
      expect([200, 202], JSON.stringify(r.json)).toContain(r.status);
      ids.add(r.json.id);
    }
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect((await waitFinal(apiKey, id as string)).json.status).toBe('success');
    expect(await credits(apiKey)).toBe(19);
  });

  it('shares a key between POST /tryons and POST /tryons/sync: async first, then sync', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const body = urlBody(h);
    const started = await create(apiKey, key, body);
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    const sync = await createSync(apiKey, key, body);
    expect(sync.status, JSON.stringify(sync.json)).toBe(200);
    expect(sync.json.id).toBe(started.json.id);
    expect(sync.json.status).toBe('success');
    expect(await credits(apiKey)).toBe(19);
  });

  it('shares a key between POST /tryons/sync and POST /tryons: sync first, then async', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const body = urlBody(h);
    const sync = await createSync(apiKey, key, body);
    expect(sync.status, JSON.stringify(sync.json)).toBe(200);
    expect(sync.json.status).toBe('success');
    const replay = await create(apiKey, key, body);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json.id).toBe(sync.json.id);
    expect(replay.json.pollUrl).toBe(`/api/v1/tryons/${sync.json.id}`);
    expect(await credits(apiKey)).toBe(19);
  });

  it('leaves the key unbound when the request ends in 403 CONSENT_REQUIRED', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const refused = await create(apiKey, key, urlBody(h, undefined, { consent: false }));
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('CONSENT_REQUIRED');
    expect(await credits(apiKey)).toBe(20);

    const corrected = await create(apiKey, key, urlBody(h));
    expect(corrected.status, JSON.stringify(corrected.json)).toBe(200);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    expect((await waitFinal(apiKey, corrected.json.id)).json.status).toBe('success');
    expect(await credits(apiKey)).toBe(19);
  });

  it('leaves the key unbound when the request ends in a 422 rejection', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const rejected = await create(apiKey, key, urlBody(h, 'person-rejected'));
    expect(rejected.status, JSON.stringify(rejected.json)).toBe(422);
    expect(rejected.json.code).toBe('PERSON_PHOTO_REJECTED');
    expect(await credits(apiKey)).toBe(20);

    const corrected = await createSync(apiKey, key, urlBody(h));
    expect(corrected.status, JSON.stringify(corrected.json)).toBe(200);
    expect(corrected.json.status).toBe('success');
    expect(await credits(apiKey)).toBe(19);
  });

  it('frees a key 24 hours after its try-on: the same key then starts a new try-on', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const body = urlBody(h);
    const first = await create(apiKey, key, body);
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect((await waitFinal(apiKey, first.json.id)).json.status).toBe('success');

    // Just before 24 hours: still a replay.
    expect((await h.control('POST', '/clock/advance', { seconds: 24 * 3600 - 60 })).status).toBe(200);
    const before = await create(apiKey, key, body);
    expect(before.status).toBe(200);
    expect(before.headers['idempotent-replayed']).toBe('true');
    expect(before.json.id).toBe(first.json.id);
    expect(await credits(apiKey)).toBe(19);

    // Past 24 hours: the key is free again.
    expect((await h.control('POST', '/clock/advance', { seconds: 120 })).status).toBe(200);
    const after = await create(apiKey, key, body);
    expect(after.status, JSON.stringify(after.json)).toBe(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.json.id).not.toBe(first.json.id);
    expect((await waitFinal(apiKey, after.json.id)).json.status).toBe('success');
    expect(await credits(apiKey)).toBe(18);
    // And the new binding replays from now on.
    const replay = await create(apiKey, key, body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json.id).toBe(after.json.id);
  });
});
