/**
 * Fairness per client address and per account (README, "Fairness"; openapi-control.yaml): one client's
 * slow uploads never cost another client a request, directly or through a trusted balancer (whose
 * X-Forwarded-For names the client), and one account's requests in flight are capped with 503 UNAVAILABLE
 * and Retry-After (spec: Errors, "503 UNAVAILABLE, temporarily unavailable, retry after a short wait")
 * while other accounts are unaffected. Real instances on ephemeral ports, at the default caps.
 */
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { defaultSettings } from '../../src/server/config.ts';
import { quickClient, slowUpload, tally, type SlowUpload } from './fairness-clients.ts';
import { newKey, startHarness, urlBody, type Harness } from './harness.ts';

const slowCount = 300;
const quickCount = 100;
let photo: Buffer;

beforeAll(async () => {
  photo = await makePersonPhoto({ width: 48, height: 64 });
});

/** An account whose per-minute limits are out of the way, so only the caps under test can refuse it. */
async function raisedAccount(h: Harness): Promise<string> {
  const { accountId, apiKey } = await h.newAccount();
  const limits = { uploadsPerMinute: 100_000, startsPerMinute: 100_000, pollsPerMinute: 100_000 };
  expect((await h.control('PUT', `/accounts/${accountId}/limits`, limits)).status).toBe(200);
  return apiKey;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Clients {
  /** Where the slow uploads and the quick requests connect from, and what a balancer would forward. */
  readonly slow: { localAddress: string; headers?: Record<string, string> };
  readonly quick: { localAddress: string; headers?: Record<string, string> };
}

/**
 * Starts 300 slow uploads of one client and account, then sends 100 requests of another account
 * (90 GET /account, 10 uploads), 10 at a time every 300 ms, so they span the time the slow ones
 * become slow (`slowAfterMs`). Returns what each side got.
 */
async function slowUploadsAgainstQuickRequests(h: Harness, clients: Clients) {
  const slowKey = await raisedAccount(h);
  const quickKey = await raisedAccount(h);
  const slow: SlowUpload[] = Array.from({ length: slowCount }, () => slowUpload(h.base, slowKey, photo, clients.slow));
  const quick = quickClient(h.base, clients.quick.localAddress, clients.quick.headers);
  try {
    await sleep(300);
    const statuses: number[] = [];
    for (let batch = 0; batch < quickCount / 10; batch++) {
      const requests = Array.from({ length: 10 }, (_, i) =>
        i === 0 ? quickUpload(quick, quickKey) : quick.get('/api/v1/account', quickKey),
      );
      statuses.push(...(await Promise.all(requests)));
      await sleep(300);
    }
    const slowOutcomes = tally(slow.map((s) => `${s.outcome()}${s.code() ? ` ${s.code()}` : ''}`));
    return { quick: tally(statuses), slow: slowOutcomes };
  } finally {
    for (const s of slow) s.stop();
    await quick.close();
  }
}

/** One upload of the quick client, over its own address. */
async function quickUpload(quick: ReturnType<typeof quickClient>, key: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'q.jpg');
  return quick.post('/api/v1/images', key, form);
}

describe('300 slow uploads from one client', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('leave another client address 100 of 100 requests', async () => {
    const result = await slowUploadsAgainstQuickRequests(h, {
      slow: { localAddress: '127.0.0.1' },
      quick: { localAddress: '127.0.0.2' },
    });
    expect(result.quick).toEqual({ 200: quickCount });
    // The slow client itself was held back: most of its uploads were refused with 503 UNAVAILABLE.
    expect(result.slow['503 UNAVAILABLE'] ?? 0).toBeGreaterThanOrEqual(slowCount - defaultSettings.maxSlowPerClient);
    console.info(`fairness, direct: quick ${JSON.stringify(result.quick)}, slow ${JSON.stringify(result.slow)}`);
  }, 60_000);

  it('without a trusted balancer, X-Forwarded-For is ignored: one address is one client', async () => {
    const result = await slowUploadsAgainstQuickRequests(h, {
      slow: { localAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.7' } },
      quick: { localAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.8' } },
    });
    expect(result.quick['503'] ?? 0).toBeGreaterThan(0);
  }, 60_000);
});

describe('300 slow uploads from one client through a trusted balancer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { trustedProxies: ['127.0.0.1'] } });
  });
  afterAll(async () => h?.close());

  it('leave another forwarded client 100 of 100 requests', async () => {
    const result = await slowUploadsAgainstQuickRequests(h, {
      slow: { localAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' } },
      quick: { localAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.8' } },
    });
    expect(result.quick).toEqual({ 200: quickCount });
    expect(result.slow['503 UNAVAILABLE'] ?? 0).toBeGreaterThanOrEqual(slowCount - defaultSettings.maxSlowPerClient);
    console.info(`fairness, balancer: quick ${JSON.stringify(result.quick)}, slow ${JSON.stringify(result.slow)}`);
  }, 60_000);
});

describe('requests in flight per account', () => {
  const cap = 4;
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { maxInFlightPerAccount: cap, syncWaitMs: 2_000, slowGenerationMs: 60_000 } });
  });
  afterAll(async () => h?.close());

  it('are capped with 503 UNAVAILABLE and Retry-After, other accounts unaffected, and free again once answered', async () => {
    const busyKey = await raisedAccount(h);
    const otherKey = await raisedAccount(h);
    const held = Array.from({ length: cap }, () =>
      h.call('POST', '/api/v1/tryons/sync', {
        key: busyKey,
        json: urlBody(h, 'slow-generation'),
        headers: { 'idempotency-key': newKey() },
      }),
    );
    const deadline = Date.now() + 10_000;
    while (h.server.context.waiters.size < cap && Date.now() < deadline) await sleep(20);
    expect(h.server.context.waiters.size).toBe(cap);

    const refused = await h.call('GET', '/api/v1/account', { key: busyKey });
    expect({ status: refused.status, code: refused.json.code, retryAfter: refused.headers['retry-after'] }).toEqual({
      status: 503,
      code: 'UNAVAILABLE',
      retryAfter: '1',
    });
    expect(refused.json.error).toContain(`${cap} requests in progress`);
    const others = await Promise.all(
      Array.from({ length: 20 }, () => h.call('GET', '/api/v1/account', { key: otherKey })),
    );
    expect(tally(others.map((r) => r.status))).toEqual({ 200: 20 });

    expect(tally((await Promise.all(held)).map((r) => r.status))).toEqual({ 202: cap });
    expect((await h.call('GET', '/api/v1/account', { key: busyKey })).status).toBe(200);
    expect(h.violations).toEqual([]);
  }, 30_000);

  it('count slow uploads too, until their connection closes', async () => {
    const busyKey = await raisedAccount(h);
    const uploads = Array.from({ length: cap }, () => slowUpload(h.base, busyKey, photo));
    try {
      const deadline = Date.now() + 5_000;
      let status = 200;
      while (status !== 503 && Date.now() < deadline) {
        status = (await h.call('GET', '/api/v1/account', { key: busyKey })).status;
        if (status !== 503) await sleep(50);
      }
      expect(status).toBe(503);
    } finally {
      for (const upload of uploads) upload.stop();
    }
    const deadline = Date.now() + 5_000;
    let status = 503;
    while (status !== 200 && Date.now() < deadline) {
      status = (await h.call('GET', '/api/v1/account', { key: busyKey })).status;
      if (status !== 200) await sleep(50);
    }
    expect(status).toBe(200);
    expect(h.violations).toEqual([]);
  }, 30_000);
});
