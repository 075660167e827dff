/**
 * Per-account rate limits over HTTP (spec: Limits; POST /tryons rule 5; openapi.yaml
 * RateLimited, RetryAfter, RateLimit-Policy / RateLimit headers, x-check-order). The windows are
 * rolling 60-second logs on the server clock, which test control can move forward.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { newKey, startHarness, upload, urlBody, type Exchange, type Harness } from './harness.ts';

let h: Harness;
let smallPhoto: Buffer;
beforeAll(async () => {
  h = await startHarness();
  smallPhoto = await makePersonPhoto({ width: 48, height: 64 });
});
afterAll(async () => h?.close());
afterEach(() => {
  expect(h.violations).toEqual([]);
});

type Endpoint = 'async' | 'sync';
const pathOf = (endpoint: Endpoint) => (endpoint === 'sync' ? '/api/v1/tryons/sync' : '/api/v1/tryons');
const start = (key: string, json: unknown, endpoint: Endpoint = 'async') =>
  h.call('POST', pathOf(endpoint), { key, json, headers: { 'idempotency-key': newKey() } });
/** A start that only counts: it is refused with 403 CONSENT_REQUIRED after the rate limit check. */
const cheapStart = async (key: string, endpoint: Endpoint = 'async') =>
  start(key, urlBody(h, undefined, { consent: false }), endpoint);
const advance = async (seconds: number) => {
  const res = await h.control('POST', '/clock/advance', { seconds });
  expect(res.status).toBe(200);
};
const setLimits = async (accountId: string, limits: Record<string, number>) => {
  const res = await h.control('PUT', `/accounts/${accountId}/limits`, limits);
  expect(res.status).toBe(200);
};

function expectLimited(res: Exchange, bucket: string, quota: number): number {
  expect(res.status, JSON.stringify(res.json)).toBe(429);
  expect(res.json.code).toBe('RATE_LIMITED');
  const retryAfter = String(res.headers['retry-after']);
  expect(retryAfter).toMatch(/^\d+$/);
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  expect(res.headers['ratelimit-policy']).toBe(`"${bucket}";q=${quota};w=60`);
  expect(res.headers.ratelimit).toBe(`"${bucket}";r=0;t=${seconds}`);
  return seconds;
}

function expectPassed(res: Exchange, status = 403): void {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
}

describe('rate limits', () => {
  it('lets 12 real starts through and answers the 13th with 429 RATE_LIMITED, Retry-After and RateLimit headers', async () => {
    const { apiKey } = await h.newAccount();
    for (let i = 0; i < 12; i++) {
      const res = await start(apiKey, urlBody(h));
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"starts";q=12;w=60');
      expect(String(res.headers.ratelimit)).toMatch(new RegExp(`^"starts";r=${11 - i};t=\\d+$`));
    }
    const thirteenth = await start(apiKey, urlBody(h));
    const retryAfter = expectLimited(thirteenth, 'starts', 12);
    expect(retryAfter).toBeGreaterThanOrEqual(55);
    // Nothing was charged for the 429.
    expect((await h.call('GET', '/api/v1/account', { key: apiKey })).json.credits).toBe(8);
  });

  it('shares the starts window between POST /tryons and POST /tryons/sync', async () => {
    const { apiKey } = await h.newAccount();
    for (let i = 0; i < 6; i++) expectPassed(await cheapStart(apiKey, 'async'));
    for (let i = 0; i < 6; i++) expectPassed(await cheapStart(apiKey, 'sync'));
    expectLimited(await cheapStart(apiKey, 'async'), 'starts', 12);
    expectLimited(await cheapStart(apiKey, 'sync'), 'starts', 12);
    expectLimited(await start(apiKey, urlBody(h), 'sync'), 'starts', 12);
  });

  it('counts every authenticated create request toward the starts window, whatever its outcome', async () => {
    const { apiKey } = await h.newAccount();
    const outcomes: Array<Promise<Exchange>> = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(h.call('POST', '/api/v1/tryons', { key: apiKey, json: urlBody(h) })); // 400 MISSING_IDEMPOTENCY_KEY
      outcomes.push(
        h.call('POST', '/api/v1/tryons/sync', {
          key: apiKey,
          rawBody: 'consent=true',
          headers: { 'content-type': 'text/plain', 'idempotency-key': newKey() },
        }),
      ); // 415
      outcomes.push(start(apiKey, { consent: true })); // 400 INVALID_REQUEST
      outcomes.push(cheapStart(apiKey)); // 403
    }
    const codes = (await Promise.all(outcomes)).map((r) => r.json.code);
    expect(new Set(codes)).toEqual(
      new Set(['MISSING_IDEMPOTENCY_KEY', 'UNSUPPORTED_MEDIA_TYPE', 'INVALID_REQUEST', 'CONSENT_REQUIRED']),
    );
    expectLimited(await start(apiKey, urlBody(h)), 'starts', 12);
    // A request without a valid API key is not the account's and does not change that.
    expect((await h.call('POST', '/api/v1/tryons', { key: 'vto_live_nope', json: urlBody(h) })).status).toBe(401);
  });

  it('limits polls to 60 a minute: the 61st GET /tryons/{id} is 429 until Retry-After has passed', async () => {
    const { apiKey } = await h.newAccount();
    const started = await start(apiKey, urlBody(h));
    expect(started.status).toBe(200);
    for (let i = 0; i < 60; i++) {
      const res = await h.call('GET', `/api/v1/tryons/${started.json.id}`, { key: apiKey });
      expect(res.status, `poll ${i + 1}`).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"polls";q=60;w=60');
    }
    const retryAfter = expectLimited(
      await h.call('GET', `/api/v1/tryons/${started.json.id}`, { key: apiKey }),
      'polls',
      60,
    );
    await advance(retryAfter);
    expect((await h.call('GET', `/api/v1/tryons/${started.json.id}`, { key: apiKey })).status).toBe(200);
    // Polls are their own bucket: starts and the account are unaffected.
    expectPassed(await cheapStart(apiKey));
    expect((await h.call('GET', '/api/v1/account', { key: apiKey })).status).toBe(200);
  });

  it('limits uploads to 30 a minute: the 31st POST /images is 429 until Retry-After has passed', async () => {
    const { apiKey } = await h.newAccount();
    for (let i = 0; i < 30; i++) {
      const res = await upload(h, apiKey, smallPhoto);
      expect(res.status, `upload ${i + 1}: ${JSON.stringify(res.json)}`).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"uploads";q=30;w=60');
    }
    const retryAfter = expectLimited(await upload(h, apiKey, smallPhoto), 'uploads', 30);
    expectPassed(await cheapStart(apiKey));
    await advance(retryAfter);
    expect((await upload(h, apiKey, smallPhoto)).status).toBe(200);
  });

  it('lets the request through after waiting Retry-After seconds, but not after Retry-After − 1 (rolling window)', async () => {
    const { apiKey } = await h.newAccount();
    // Timeline on the server clock, t in seconds from the first request:
    //   t=0      6 starts            (window: 6)
    //   t=30.5   6 starts            (window: 12)
    //   t=30.5   13th → 429, Retry-After = ⌈60 − 30.5⌉ = 30 (the t=0 requests leave at t=60)
    //   t=59.5   (after Retry-After − 1) → still 429, Retry-After 1
    //   t=60.5   (after Retry-After)     → passes; the t=0 batch has left, so 6 pass in all
    //   t=60.5   7th → 429 again, Retry-After = ⌈90.5 − 60.5⌉ = 30 (the t=30.5 batch leaves at t=90.5)
    for (let i = 0; i < 6; i++) expectPassed(await cheapStart(apiKey));
    await advance(30.5);
    for (let i = 0; i < 6; i++) expectPassed(await cheapStart(apiKey, 'sync'));
    const retryAfter = expectLimited(await cheapStart(apiKey), 'starts', 12);
    expect(retryAfter).toBe(30);

    await advance(retryAfter - 1);
    const early = expectLimited(await cheapStart(apiKey), 'starts', 12);
    expect(early).toBe(1);

    await advance(1);
    const real = await start(apiKey, urlBody(h));
    expect(real.status, JSON.stringify(real.json)).toBe(200);
    for (let i = 0; i < 5; i++) expectPassed(await cheapStart(apiKey));
    expect(expectLimited(await cheapStart(apiKey), 'starts', 12)).toBe(30);
  });

  it('lets the 13th request through after waiting the Retry-After of a full burst', async () => {
    const { apiKey } = await h.newAccount();
    for (let i = 0; i < 12; i++) expectPassed(await cheapStart(apiKey));
    const retryAfter = expectLimited(await cheapStart(apiKey), 'starts', 12);
    expect(retryAfter).toBeGreaterThan(1);
    await advance(retryAfter - 1);
    expectLimited(await cheapStart(apiKey), 'starts', 12);
    await advance(1);
    expectPassed(await cheapStart(apiKey));
  });

  it('applies per-account limits set through test control', async () => {
    const { accountId, apiKey } = await h.newAccount();
    await setLimits(accountId, { startsPerMinute: 2, pollsPerMinute: 3, uploadsPerMinute: 1 });
    const first = await start(apiKey, urlBody(h));
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-policy']).toBe('"starts";q=2;w=60');
    expectPassed(await cheapStart(apiKey, 'sync'));
    expectLimited(await cheapStart(apiKey), 'starts', 2);

    for (let i = 0; i < 3; i++)
      expect((await h.call('GET', `/api/v1/tryons/${first.json.id}`, { key: apiKey })).status).toBe(200);
    expectLimited(await h.call('GET', `/api/v1/tryons/${first.json.id}`, { key: apiKey }), 'polls', 3);

    expect((await upload(h, apiKey, smallPhoto)).status).toBe(200);
    expectLimited(await upload(h, apiKey, smallPhoto), 'uploads', 1);

    // Raising the limit again applies at once.
    await setLimits(accountId, { startsPerMinute: 12 });
    const again = await cheapStart(apiKey);
    expectPassed(again);
    expect(again.headers['ratelimit-policy']).toBe('"starts";q=12;w=60');
  });

  it('keeps limits per account: another account is unaffected', async () => {
    const a = await h.newAccount();
    const b = await h.newAccount();
    for (let i = 0; i < 12; i++) expectPassed(await cheapStart(a.apiKey));
    expectLimited(await cheapStart(a.apiKey), 'starts', 12);
    const other = await start(b.apiKey, urlBody(h));
    expect(other.status, JSON.stringify(other.json)).toBe(200);
    expect(other.headers.ratelimit).toMatch(/^"starts";r=11;t=\d+$/);
    expectLimited(await cheapStart(a.apiKey, 'sync'), 'starts', 12);
  });
});
