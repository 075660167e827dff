/**
 * The storage quota of uploads over HTTP (an implementation choice, openapi.yaml uploadImage
 * x-reference-server): an account's uploads count against its quota until their id expires 24 hours
 * after upload; over it, POST /images is 429 RATE_LIMITED with a Retry-After that lets the upload
 * through (spec: Errors, "429 RATE_LIMITED … wait `Retry-After` seconds"), and other accounts are
 * unaffected. The quota is a server setting and a per-account limit of test control.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { defaultSettings } from '../../src/server/config.ts';
import { controlBounds } from '../../src/server/control/control-routes.ts';
import { startHarness, upload, type Exchange, type Harness } from './harness.ts';

const day = 24 * 3600;
let h: Harness;
let photo: Buffer;

beforeAll(async () => {
  h = await startHarness();
  photo = await makePersonPhoto({ width: 300, height: 400 });
});
afterAll(async () => h?.close());
afterEach(() => {
  expect(h.violations.splice(0)).toEqual([]);
});

async function accountWithQuota(bytes: number): Promise<string> {
  const { accountId, apiKey } = await h.newAccount();
  const limits = { uploadQuotaBytes: bytes, uploadsPerMinute: 1000 };
  const res = await h.control('PUT', `/accounts/${accountId}/limits`, limits);
  expect(res.json.limits.uploadQuotaBytes).toBe(bytes);
  return apiKey;
}

const answer = (res: Exchange) => ({ status: res.status, code: res.json?.code });

describe('the storage quota of uploads', () => {
  it('refuses an upload over the quota with 429 RATE_LIMITED and a Retry-After until the oldest upload expires, which lets it through', async () => {
    const quota = Math.floor(photo.length * 2.5);
    const key = await accountWithQuota(quota);
    expect(answer(await upload(h, key, photo))).toEqual({ status: 200, code: undefined });
    expect(answer(await upload(h, key, photo))).toEqual({ status: 200, code: undefined });

    const refused = await upload(h, key, photo);
    expect(answer(refused)).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(refused.json.error).toContain('Storage quota');
    expect(refused.json.error).toContain(`${quota} bytes`);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(day - 120);
    expect(retryAfter).toBeLessThanOrEqual(day);
    expect(refused.headers.ratelimit).toMatch(/^"storage";r=\d+;t=\d+$/);

    // Half a minute early it is still refused (real time passes too); at Retry-After it goes through.
    expect((await h.control('POST', '/clock/advance', { seconds: retryAfter - 30 })).status).toBe(200);
    expect(answer(await upload(h, key, photo))).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect((await h.control('POST', '/clock/advance', { seconds: 30 })).status).toBe(200);
    expect(answer(await upload(h, key, photo))).toEqual({ status: 200, code: undefined });
  });

  it('leaves other accounts unaffected', async () => {
    const full = await accountWithQuota(photo.length);
    const other = await h.newAccount();
    expect(answer(await upload(h, full, photo))).toEqual({ status: 200, code: undefined });
    // The full account keeps trying while the other one uploads: each refusal is the envelope naming the
    // quota, and every upload of the other account goes through.
    const [refused, others] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, () => upload(h, full, photo))),
      Promise.all(Array.from({ length: 3 }, () => upload(h, other.apiKey, photo))),
    ]);
    for (const res of refused) {
      expect(answer(res)).toEqual({ status: 429, code: 'RATE_LIMITED' });
      expect(res.json.error).toContain('Storage quota reached');
    }
    expect(others.map(answer)).toEqual(others.map(() => ({ status: 200, code: undefined })));
  });

  it('refuses an image larger than the whole quota with 413 IMAGE_TOO_LARGE, which no wait would let through', async () => {
    const key = await accountWithQuota(photo.length - 1);
    const res = await upload(h, key, photo);
    expect(answer(res)).toEqual({ status: 413, code: 'IMAGE_TOO_LARGE' });
    expect(res.json.error).toContain('storage quota');
  });

  it('is 256 MiB by default, shown in the settings of test control', async () => {
    expect(defaultSettings.limits.uploadQuotaBytes).toBe(256 * 1024 * 1024);
    expect((await h.control('GET', '/settings')).json.limits.uploadQuotaBytes).toBe(256 * 1024 * 1024);
  });

  it.each([
    ['negative', -1],
    ['a fraction', 1.5],
    ['over 1 TiB', controlBounds.maxUploadQuotaBytes + 1],
    ['a string', '1000'],
  ])('refuses a quota that is %s with 400 INVALID_REQUEST, changing nothing', async (_, value) => {
    const { accountId } = await h.newAccount();
    const res = await h.control('PUT', `/accounts/${accountId}/limits`, { uploadQuotaBytes: value });
    expect(answer(res)).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    expect(await h.server.context.store.limitsOf(accountId)).toBeNull();
  });
});

describe('the server-wide quota setting', () => {
  it('applies to every account without a quota of its own', async () => {
    const limits = { ...defaultSettings.limits, uploadQuotaBytes: photo.length + 10 };
    const local = await startHarness({ settings: { limits } });
    try {
      const { apiKey } = await local.newAccount();
      expect(answer(await upload(local, apiKey, photo))).toEqual({ status: 200, code: undefined });
      expect(answer(await upload(local, apiKey, photo))).toEqual({ status: 429, code: 'RATE_LIMITED' });
      expect(local.violations).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
