import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey, pollUntilFinal, startHarness, urlBody, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe('smoke', () => {
  it('creates an account, starts a try-on by URL, and reaches success', async () => {
    const { apiKey } = await h.newAccount();
    const acct = await h.call('GET', '/api/v1/account', { key: apiKey });
    expect(acct.json).toEqual({ credits: 20 });
    const start = await h.call('POST', '/api/v1/tryons', {
      key: apiKey,
      json: urlBody(h),
      headers: { 'idempotency-key': newKey() },
    });
    expect(start.status, JSON.stringify(start.json)).toBe(200);
    const final = await pollUntilFinal(h, apiKey, start.json.id);
    expect(final.json.status).toBe('success');
    expect(h.violations).toEqual([]);
  });
});
