/**
 * The read cache of the hot path (src/server/store/read-cache.ts; issue 15) never serves a stale
 * answer, over HTTP against a real instance: every case first reads through the cache (so the entry
 * is there), then changes what it holds through test control or the generation, and the very next
 * request must see the change. Spec: Authentication 3-4 (one active key, a revoked key is 401),
 * Limits (429 with Retry-After), States and transitions (a finished try-on's state is final).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newKey, pollUntilFinal, startHarness, urlBody, type Harness } from './harness.ts';

const invalidKey = { status: 401, code: 'INVALID_API_KEY' };

describe('read cache over HTTP', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.violations.splice(0)).toEqual([]);
  });

  /** An account with a finished (success) try-on, read twice so every cache holds it. */
  async function accountWithFinishedTryOn() {
    const account = await h.newAccount();
    const raised = await h.control('PUT', `/accounts/${account.accountId}/limits`, {
      startsPerMinute: 100,
      pollsPerMinute: 1000,
    });
    expect(raised.status).toBe(200);
    const start = await h.call('POST', '/api/v1/tryons', {
      key: account.apiKey,
      json: urlBody(h),
      headers: { 'idempotency-key': newKey() },
    });
    expect(start.status, JSON.stringify(start.json)).toBe(200);
    const id = String(start.json.id);
    expect((await pollUntilFinal(h, account.apiKey, id)).json.status).toBe('success');
    const path = `/api/v1/tryons/${id}`;
    expect((await h.call('GET', path, { key: account.apiKey })).status).toBe(200);
    return { ...account, id, path };
  }

  const answer = (ex: { status: number; json: any }) => ({ status: ex.status, code: ex.json?.code });

  it('refuses a revoked key on the very next request after it was cached', async () => {
    const a = await accountWithFinishedTryOn();
    expect((await h.call('GET', a.path, { key: a.apiKey })).status).toBe(200);
    expect((await h.control('POST', `/accounts/${a.accountId}/revoke-key`)).status).toBe(200);
    expect(answer(await h.call('GET', a.path, { key: a.apiKey }))).toEqual(invalidKey);
    expect(answer(await h.call('GET', '/api/v1/account', { key: a.apiKey }))).toEqual(invalidKey);
  });

  it('after a rotation refuses the cached old key and accepts the new one', async () => {
    const a = await accountWithFinishedTryOn();
    const rotated = await h.control('POST', `/accounts/${a.accountId}/rotate-key`);
    expect(rotated.status).toBe(200);
    expect(answer(await h.call('GET', a.path, { key: a.apiKey }))).toEqual(invalidKey);
    expect((await h.call('GET', a.path, { key: rotated.json.apiKey })).status).toBe(200);
    // Rotated again: the second key, now cached, is refused too.
    const again = await h.control('POST', `/accounts/${a.accountId}/rotate-key`);
    expect(answer(await h.call('GET', a.path, { key: rotated.json.apiKey }))).toEqual(invalidKey);
    expect((await h.call('GET', a.path, { key: again.json.apiKey })).status).toBe(200);
  });

  it("keeps a key cached for one account from being touched by another account's revocation", async () => {
    const a = await accountWithFinishedTryOn();
    const b = await h.newAccount();
    expect((await h.control('POST', `/accounts/${b.accountId}/revoke-key`)).status).toBe(200);
    expect((await h.call('GET', a.path, { key: a.apiKey })).status).toBe(200);
    expect(answer(await h.call('GET', '/api/v1/account', { key: b.apiKey }))).toEqual(invalidKey);
  });

  it('applies a limit changed through test control on the next request, raised or lowered', async () => {
    const a = await accountWithFinishedTryOn();
    // The window already holds a few polls of this account; a limit of that many plus one leaves one.
    const lowered = await h.control('PUT', `/accounts/${a.accountId}/limits`, { pollsPerMinute: 1 });
    expect(lowered.status).toBe(200);
    const refused = await h.call('GET', a.path, { key: a.apiKey });
    expect(answer(refused)).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['ratelimit-policy']).toBe('"polls";q=1;w=60');
    expect((await h.control('PUT', `/accounts/${a.accountId}/limits`, { pollsPerMinute: 1000 })).status).toBe(200);
    const allowed = await h.call('GET', a.path, { key: a.apiKey });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['ratelimit-policy']).toBe('"polls";q=1000;w=60');
  });

  it('shows credits changed through test control at once', async () => {
    const a = await h.newAccount();
    const before = await h.call('GET', '/api/v1/account', { key: a.apiKey });
    expect(before.json).toEqual({ credits: 20 });
    expect((await h.control('PUT', `/accounts/${a.accountId}/credits`, { credits: 7 })).status).toBe(200);
    expect((await h.call('GET', '/api/v1/account', { key: a.apiKey })).json).toEqual({ credits: 7 });
  });

  it("answers another account's cached try-on NOT_FOUND, like a missing one", async () => {
    const a = await accountWithFinishedTryOn();
    const b = await h.newAccount();
    expect(answer(await h.call('GET', a.path, { key: b.apiKey }))).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('never serves a pending try-on stale once it has finished', async () => {
    const a = await h.newAccount();
    await h.control('PUT', `/accounts/${a.accountId}/limits`, { pollsPerMinute: 1000 });
    // slow-generation outlasts these reads: the try-on is pending for all of them.
    const start = await h.call('POST', '/api/v1/tryons', {
      key: a.apiKey,
      json: urlBody(h, 'slow-generation'),
      headers: { 'idempotency-key': newKey() },
    });
    expect(start.status).toBe(200);
    const path = `/api/v1/tryons/${String(start.json.id)}`;
    for (let i = 0; i < 3; i++) expect((await h.call('GET', path, { key: a.apiKey })).json.status).toBe('pending');
    // The generation ends now, the way the queue ends it (a write to the server's store).
    const { store, clock } = h.server.context;
    expect(
      await store.finishFailure(
        String(start.json.id),
        'The try-on could not be generated. Your credit has been returned.',
        clock.now(),
      ),
    ).toBe(true);
    const read = await h.call('GET', path, { key: a.apiKey });
    expect(read.json).toMatchObject({ status: 'failed', resultUrl: null });
  });

  it('moves a try-on read while pending to its final state when the generation finishes', async () => {
    const a = await h.newAccount();
    await h.control('PUT', `/accounts/${a.accountId}/limits`, { pollsPerMinute: 1000 });
    const start = await h.call('POST', '/api/v1/tryons', {
      key: a.apiKey,
      json: urlBody(h),
      headers: { 'idempotency-key': newKey() },
    });
    const id = String(start.json.id);
    const seen: string[] = [];
    for (let i = 0; i < 300; i++) {
      const read = await h.call('GET', `/api/v1/tryons/${id}`, { key: a.apiKey });
      seen.push(read.json.status);
      if (read.json.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(seen.at(-1)).toBe('success');
    expect(seen.slice(0, -1).every((s) => s === 'pending')).toBe(true);
  });
});

describe('read cache and the clock', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.violations.splice(0)).toEqual([]);
  });

  it('reads a finished try-on the same, byte for byte, before and after the clock crosses its 24 hours', async () => {
    const a = await h.newAccount();
    await h.control('PUT', `/accounts/${a.accountId}/limits`, { startsPerMinute: 100, pollsPerMinute: 1000 });
    const ids: string[] = [];
    for (const scenario of [undefined, 'generation-fails'] as const) {
      const start = await h.call('POST', '/api/v1/tryons', {
        key: a.apiKey,
        json: urlBody(h, scenario),
        headers: { 'idempotency-key': newKey() },
      });
      expect(start.status).toBe(200);
      ids.push(String(start.json.id));
      await pollUntilFinal(h, a.apiKey, String(start.json.id));
    }
    const read = async () =>
      Promise.all(
        ids.map(async (id) => {
          const ex = await h.call('GET', `/api/v1/tryons/${id}`, { key: a.apiKey });
          return { status: ex.status, type: ex.headers['content-type'], body: ex.body.toString() };
        }),
      );
    const before = await read();
    expect(before.map((r) => JSON.parse(r.body).status)).toEqual(['success', 'failed']);
    const resultUrl = String(JSON.parse(before[0]?.body ?? '{}').resultUrl);
    const resultStatus = async () => {
      const res = await fetch(resultUrl);
      await res.arrayBuffer();
      return res.status;
    };
    const resultBefore = await resultStatus();
    expect((await h.control('POST', '/clock/advance', { seconds: 25 * 3600 })).status).toBe(200);
    // The read itself never depended on the clock (a result URL's expiry shows at the URL): unchanged.
    expect(await read()).toEqual(before);
    expect(resultBefore).toBe(200);
    expect(await resultStatus()).not.toBe(200);
  });
});
