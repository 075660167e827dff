/**
 * The credit ledger over HTTP (spec: What the service does, "Pricing"; States and transitions;
 * Errors 402 and 502; openapi.yaml GET /account).
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

const create = (key: string, json: unknown, idemKey: string = newKey()) =>
  h.call('POST', '/api/v1/tryons', { key, json, headers: { 'idempotency-key': idemKey } });
const createSync = (key: string, json: unknown, idemKey: string = newKey()) =>
  h.call('POST', '/api/v1/tryons/sync', { key, json, headers: { 'idempotency-key': idemKey } });
const credits = async (key: string): Promise<number> => {
  const res = await h.call('GET', '/api/v1/account', { key });
  expect(res.status).toBe(200);
  return res.json.credits as number;
};
const setCredits = async (accountId: string, value: number) => {
  const res = await h.control('PUT', `/accounts/${accountId}/credits`, { credits: value });
  expect(res.status).toBe(200);
  return res;
};
const setLimits = async (accountId: string, limits: Record<string, number>) => {
  const res = await h.control('PUT', `/accounts/${accountId}/limits`, limits);
  expect(res.status).toBe(200);
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

describe('credits', () => {
  it('gives a new account 20 credits, and control can set the balance', async () => {
    const created = await h.control('POST', '/accounts');
    expect(created.status).toBe(200);
    expect(created.json.credits).toBe(20);
    const { accountId, apiKey } = created.json as { accountId: string; apiKey: string };
    expect(await credits(apiKey)).toBe(20);

    expect((await setCredits(accountId, 5)).json.credits).toBe(5);
    expect(await credits(apiKey)).toBe(5);
    expect((await setCredits(accountId, 1234)).json.credits).toBe(1234);
    expect(await credits(apiKey)).toBe(1234);
    expect((await setCredits(accountId, 0)).json.credits).toBe(0);
    expect(await credits(apiKey)).toBe(0);
  });

  it('charges one credit per successful try-on: balance after = balance before − successes', async () => {
    const { apiKey } = await h.newAccount();
    const before = await credits(apiKey);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await create(apiKey, urlBody(h));
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      ids.push(res.json.id);
    }
    const sync = await createSync(apiKey, urlBody(h));
    expect(sync.status).toBe(200);
    expect(sync.json.status).toBe('success');
    for (const id of ids) expect((await waitFinal(apiKey, id)).json.status).toBe('success');
    expect(await credits(apiKey)).toBe(before - 4);
  });

  it('refunds a try-on that ends failed (generation-fails)', async () => {
    const { apiKey } = await h.newAccount();
    const before = await credits(apiKey);
    const start = await create(apiKey, urlBody(h, 'generation-fails'));
    expect(start.status, JSON.stringify(start.json)).toBe(200);
    const final = await waitFinal(apiKey, start.json.id);
    expect(final.json.status).toBe('failed');
    expect(final.json.message).toEqual(expect.any(String));
    expect(await credits(apiKey)).toBe(before);

    const sync = await createSync(apiKey, urlBody(h, 'generation-fails'));
    expect(sync.status).toBe(200);
    expect(sync.json.status).toBe('failed');
    expect(await credits(apiKey)).toBe(before);
  });

  it('charges nothing for starts that end in a 4xx', async () => {
    const { apiKey } = await h.newAccount();
    const refusals: Array<[Exchange, number, string]> = [
      [await create(apiKey, urlBody(h, undefined, { consent: false })), 403, 'CONSENT_REQUIRED'],
      [
        await create(apiKey, { garmentImageUrl: h.fixtures.url('/f/garment.png'), consent: true }),
        400,
        'INVALID_REQUEST',
      ],
      [
        await create(apiKey, urlBody(h, undefined, { personImageUrl: 'http://fixtures.test/f/person.jpg' })),
        400,
        'INVALID_IMAGE_URL',
      ],
      [
        await create(apiKey, urlBody(h, undefined, { personImageUrl: h.fixtures.url('/f/missing.jpg') })),
        400,
        'IMAGE_DOWNLOAD_FAILED',
      ],
      [
        await create(apiKey, urlBody(h, undefined, { personImageUrl: undefined, personImageId: 'img_unknown0000' })),
        400,
        'INVALID_IMAGE_ID',
      ],
      [await create(apiKey, urlBody(h, 'person-rejected')), 422, 'PERSON_PHOTO_REJECTED'],
      [await create(apiKey, urlBody(h, 'image-rejected')), 422, 'IMAGE_REJECTED'],
      [await createSync(apiKey, urlBody(h, 'garment-rejected')), 422, 'GARMENT_REJECTED'],
      [
        await h.call('POST', '/api/v1/tryons', { key: apiKey, json: urlBody(h) }), // no Idempotency-Key
        400,
        'MISSING_IDEMPOTENCY_KEY',
      ],
    ];
    for (const [res, status, code] of refusals) {
      expect(res.status, JSON.stringify(res.json)).toBe(status);
      expect(res.json.code).toBe(code);
    }
    expect(await credits(apiKey)).toBe(20);
  });

  it('charges nothing for 429 RATE_LIMITED answers', async () => {
    const { accountId, apiKey } = await h.newAccount();
    await setLimits(accountId, { startsPerMinute: 2 });
    const ok = await create(apiKey, urlBody(h));
    expect(ok.status).toBe(200);
    expect((await create(apiKey, urlBody(h, undefined, { consent: false }))).status).toBe(403);
    for (let i = 0; i < 5; i++) {
      const limited = await (i % 2 ? createSync : create)(apiKey, urlBody(h));
      expect(limited.status).toBe(429);
      expect(limited.json.code).toBe('RATE_LIMITED');
    }
    expect((await waitFinal(apiKey, ok.json.id)).json.status).toBe('success');
    expect(await credits(apiKey)).toBe(19);
  });

  it('charges nothing for replays of an Idempotency-Key', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const first = await create(apiKey, urlBody(h), key);
    expect(first.status).toBe(200);
    for (let i = 0; i < 4; i++) {
      const replay = await (i % 2 ? createSync : create)(apiKey, urlBody(h), key);
      expect(replay.status).toBe(200);
      expect(replay.json.id).toBe(first.json.id);
    }
    expect((await waitFinal(apiKey, first.json.id)).json.status).toBe('success');
    expect(await credits(apiKey)).toBe(19);
  });

  it('charges nothing for 502 START_FAILED (and 500 / 503 at start), and the key stays unbound', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const failed = await create(apiKey, urlBody(h, 'start-failed'), key);
    expect(failed.status, JSON.stringify(failed.json)).toBe(502);
    expect(failed.json.code).toBe('START_FAILED');
    expect(await credits(apiKey)).toBe(20);
    // Spec: "retry, same Idempotency-Key": the retry is processed afresh, again without a charge.
    const retried = await createSync(apiKey, urlBody(h, 'start-failed'), key);
    expect(retried.status).toBe(502);
    expect(retried.json.code).toBe('START_FAILED');

    const internal = await create(apiKey, urlBody(h, 'internal-error'));
    expect(internal.status).toBe(500);
    expect(internal.json.code).toBe('INTERNAL_ERROR');
    const unavailable = await create(apiKey, urlBody(h, 'unavailable'));
    expect(unavailable.status).toBe(503);
    expect(unavailable.json.code).toBe('UNAVAILABLE');
    expect(await credits(apiKey)).toBe(20);

    const fixed = await create(apiKey, urlBody(h), key);
    expect(fixed.status).toBe(200);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect((await waitFinal(apiKey, fixed.json.id)).json.status).toBe('success');
    expect(await credits(apiKey)).toBe(19);
  });

  it('answers 402 INSUFFICIENT_CREDITS at a balance of 0 and starts nothing', async () => {
    const { accountId, apiKey } = await h.newAccount();
    await setCredits(accountId, 0);
    const key = newKey();
    const refused = await create(apiKey, urlBody(h), key);
    expect(refused.status, JSON.stringify(refused.json)).toBe(402);
    expect(refused.json.code).toBe('INSUFFICIENT_CREDITS');
    const refusedSync = await createSync(apiKey, urlBody(h));
    expect(refusedSync.status).toBe(402);
    expect(refusedSync.json.code).toBe('INSUFFICIENT_CREDITS');
    expect(await credits(apiKey)).toBe(0);
    expect(h.server.context.waiters.size).toBe(0);

    // Nothing was started under the key: after a top-up the same key starts a fresh try-on.
    await setCredits(accountId, 1);
    const started = await create(apiKey, urlBody(h), key);
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    expect(started.headers['idempotent-replayed']).toBeUndefined();
    expect((await waitFinal(apiKey, started.json.id)).json.status).toBe('success');
    expect(await credits(apiKey)).toBe(0);
    const next = await create(apiKey, urlBody(h));
    expect(next.status).toBe(402);
  });

  it('accepts exactly 20 of 100 parallel distinct starts with 20 credits, and the balance never goes negative', async () => {
    const { accountId, apiKey } = await h.newAccount();
    await setLimits(accountId, { startsPerMinute: 1000, pollsPerMinute: 1000 });
    await setCredits(accountId, 20);

    const seen: number[] = [];
    const raw: number[] = [];
    let running = true;
    const watcher = (async () => {
      while (running) {
        seen.push(await credits(apiKey));
        // The ledger itself, not only the clamped GET /account view.
        raw.push(await h.server.context.store.balance(accountId));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const answers = await Promise.all(Array.from({ length: 100 }, () => create(apiKey, urlBody(h))));
    running = false;
    await watcher;

    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 402)).toHaveLength(80);
    for (const r of answers.filter((a) => a.status === 402)) expect(r.json.code).toBe('INSUFFICIENT_CREDITS');
    const ids = answers.filter((a) => a.status === 200).map((a) => a.json.id as string);
    expect(new Set(ids).size).toBe(20);

    expect(seen.length).toBeGreaterThan(0);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);
    expect(Math.min(...raw)).toBeGreaterThanOrEqual(0);
    for (const id of ids) expect((await waitFinal(apiKey, id)).json.status).toBe('success');
    expect(await credits(apiKey)).toBe(0);
    expect(await h.server.context.store.balance(accountId)).toBe(0);
  });

  it('refunds only the failures among parallel starts with a limited balance', async () => {
    const { accountId, apiKey } = await h.newAccount();
    await setLimits(accountId, { startsPerMinute: 1000, pollsPerMinute: 1000 });
    await setCredits(accountId, 10);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => create(apiKey, urlBody(h, i % 2 ? 'generation-fails' : undefined))),
    );
    const accepted = answers.filter((a) => a.status === 200);
    // A refund that lands while the burst is still arriving may let an eleventh start through.
    expect(accepted.length).toBeGreaterThanOrEqual(10);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(30 - accepted.length);
    const finals = await Promise.all(accepted.map((a) => waitFinal(apiKey, a.json.id)));
    const successes = finals.filter((f) => f.json.status === 'success').length;
    expect(successes + finals.filter((f) => f.json.status === 'failed').length).toBe(accepted.length);
    expect(successes).toBeLessThanOrEqual(10);
    expect(await credits(apiKey)).toBe(10 - successes);
    expect(await h.server.context.store.balance(accountId)).toBe(10 - successes);
  });
});
