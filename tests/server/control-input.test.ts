/**
 * The control extension validates its input as strictly as the API (issue 13; openapi-control.yaml):
 * out-of-range clock moves, credits and limits get 400 INVALID_REQUEST in the envelope, a refused
 * call changes nothing, and the clock can never be pushed into a state that breaks other routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlBounds } from '../../src/server/control/control-routes.ts';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { startHarness, upload, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const refusedClockMoves: ReadonlyArray<readonly [string, unknown]> = [
  ['1e13 seconds (past what a date can hold)', { seconds: 1e13 }],
  ['one second more than one move may take', { seconds: controlBounds.maxAdvanceSeconds + 1 }],
  ['a negative move', { seconds: -1 }],
  ['a string', { seconds: '10' }],
  ['null', { seconds: null }],
  ['no seconds', {}],
  ['an array body', [1]],
  ['a number body', 5],
];

const refusedCredits: ReadonlyArray<readonly [string, unknown]> = [
  ['over the maximum', { credits: controlBounds.maxCredits + 1 }],
  ['9e15', { credits: 9e15 }],
  ['negative', { credits: -1 }],
  ['a fraction', { credits: 1.5 }],
  ['a string', { credits: '5' }],
  ['an array body', [5]],
];

const refusedLimits: ReadonlyArray<readonly [string, unknown]> = [
  ['over the maximum', { startsPerMinute: controlBounds.maxLimitPerMinute + 1 }],
  ['zero', { pollsPerMinute: 0 }],
  ['a fraction', { uploadsPerMinute: 2.5 }],
  ['one good field and one bad one', { startsPerMinute: 50, pollsPerMinute: -3 }],
  ['an array body', [{ startsPerMinute: 50 }]],
];

describe('the control extension refuses out-of-range input with 400 INVALID_REQUEST and changes nothing', () => {
  it.each(refusedClockMoves)('clock move: %s', async (_, body) => {
    const before = (await h.control('GET', '/settings')).json.now as string;
    const res = await h.control('POST', '/clock/advance', body);
    expect({ status: res.status, code: res.json?.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    expect(typeof res.json.error).toBe('string');
    const after = (await h.control('GET', '/settings')).json.now as string;
    // Real time passes between the two reads; the refused move did not.
    expect(Date.parse(after) - Date.parse(before)).toBeLessThan(60_000);
  });

  it.each(refusedCredits)('credits: %s', async (_, body) => {
    const { accountId, apiKey } = await h.newAccount();
    const res = await h.control('PUT', `/accounts/${accountId}/credits`, body);
    expect({ status: res.status, code: res.json?.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    expect((await h.call('GET', '/api/v1/account', { key: apiKey })).json).toEqual({ credits: 20 });
  });

  it.each(refusedLimits)('limits: %s', async (_, body) => {
    const { accountId } = await h.newAccount();
    const res = await h.control('PUT', `/accounts/${accountId}/limits`, body);
    expect({ status: res.status, code: res.json?.code }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    expect((await h.server.context.store.limitsOf(accountId)) ?? h.server.context.settings.limits).toEqual(
      h.server.context.settings.limits,
    );
  });

  it('accepts the maxima themselves', async () => {
    const { accountId } = await h.newAccount();
    expect(
      (await h.control('PUT', `/accounts/${accountId}/credits`, { credits: controlBounds.maxCredits })).status,
    ).toBe(200);
    const limits = {
      startsPerMinute: controlBounds.maxLimitPerMinute,
      pollsPerMinute: 1,
      uploadsPerMinute: 30,
      uploadQuotaBytes: controlBounds.maxUploadQuotaBytes,
    };
    expect((await h.control('PUT', `/accounts/${accountId}/limits`, limits)).json).toEqual({ accountId, limits });
  });
});

describe('the clock cannot break other routes', () => {
  it('moves by the largest allowed steps until it stops a day short of year 10000, and uploads, accounts and settings still answer', async () => {
    const local = await startHarness();
    try {
      const { apiKey } = await local.newAccount();
      let last = 200;
      let moves = 0;
      while (last === 200 && moves < 200) {
        last = (await local.control('POST', '/clock/advance', { seconds: controlBounds.maxAdvanceSeconds })).status;
        moves++;
      }
      expect(last).toBe(400);
      // The last step: right up to one day before the end of year 9999, then one second more is refused.
      const now = Date.parse((await local.control('GET', '/settings')).json.now);
      const rest = Math.floor((Date.UTC(9999, 11, 30, 23, 59, 0) - now) / 1000);
      expect((await local.control('POST', '/clock/advance', { seconds: rest })).status).toBe(200);
      expect((await local.control('POST', '/clock/advance', { seconds: 120 })).status).toBe(400);
      const settings = await local.control('GET', '/settings');
      expect(settings.status).toBe(200);
      expect(settings.json.now).toMatch(/^9999-12-/);
      const uploaded = await upload(local, apiKey, await makePersonPhoto({ width: 120, height: 160 }));
      expect(uploaded.status).toBe(200);
      expect(uploaded.json.expiresAt).toMatch(/^9999-12-31T/);
      expect((await local.call('GET', '/api/v1/account', { key: apiKey })).status).toBe(200);
      expect(local.violations).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
