/**
 * Health and readiness (src/server/routes/health.ts; openapi-control.yaml): outside /api/v1, no key,
 * no rate limit. /readyz names the instance and is 503 UNAVAILABLE in the envelope, with Retry-After,
 * once the store stops answering.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ instance: 'health-test-1' });
});
afterAll(async () => h?.close());

async function get(path: string) {
  const res = await request(`${h.base}${path}`);
  return { status: res.statusCode, headers: res.headers, json: (await res.body.json()) as Record<string, unknown> };
}

describe('GET /healthz and GET /readyz', () => {
  it('answer 200 without a key, naming the instance', async () => {
    expect(await get('/healthz')).toMatchObject({ status: 200, json: { status: 'ok', instance: 'health-test-1' } });
    expect(await get('/readyz')).toMatchObject({ status: 200, json: { status: 'ready', instance: 'health-test-1' } });
  });

  it('count against no rate limit: 150 readiness probes in a row all answer 200', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) statuses.add((await get(i % 2 ? '/readyz' : '/healthz')).status);
    expect([...statuses]).toEqual([200]);
  });

  it('refuse other methods like any path without that endpoint, in the envelope', async () => {
    const res = await request(`${h.base}/readyz`, { method: 'POST' });
    const json = (await res.body.json()) as { code: string };
    expect([404, 405]).toContain(res.statusCode);
    expect(typeof json.code).toBe('string');
  });

  it('/readyz is 503 UNAVAILABLE once the server is marked not ready (draining); the API still answers', async () => {
    const local = await startHarness();
    try {
      const { apiKey } = await local.newAccount();
      local.server.app.markNotReady();
      const res = await request(`${local.base}/readyz`);
      const json = (await res.body.json()) as { code: string; error: string };
      expect({ status: res.statusCode, code: json.code }).toEqual({ status: 503, code: 'UNAVAILABLE' });
      expect(json.error).toContain('draining');
      expect((await request(`${local.base}/healthz`)).statusCode).toBe(200);
      expect((await local.call('GET', '/api/v1/account', { key: apiKey })).status).toBe(200);
    } finally {
      await local.close();
    }
  });

  it('/readyz is 503 UNAVAILABLE with Retry-After once the store stops answering; /healthz stays 200', async () => {
    const local = await startHarness();
    try {
      await local.server.context.store.close();
      const res = await request(`${local.base}/readyz`);
      const json = (await res.body.json()) as { code: string; error: string };
      expect({ status: res.statusCode, code: json.code }).toEqual({ status: 503, code: 'UNAVAILABLE' });
      expect(json.error).toContain('store');
      expect(res.headers['retry-after']).toBe('1');
      expect((await request(`${local.base}/healthz`)).statusCode).toBe(200);
    } finally {
      await local.close().catch(() => {});
    }
  });
});
