/**
 * Spec: Limits; POST /tryons rule 5; Errors (RATE_LIMITED). Each test takes a fresh account at the
 * documented limits (test control), fills one window on purpose (`pace: false`), and checks the
 * 429, its Retry-After, and that waiting that long lets the next request through — on the test
 * clock when the target has one.
 */
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { makeGarmentImage } from '../fixtures/images.ts';
import { Api } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

const statusOf = (ex: Exchange) => ex.response?.status ?? ex.error;
const retryAfter = (ex: Exchange): number => Number(ex.response?.headers['retry-after']);

/** A start that is refused before it could cost anything: every target answers it without a charge. */
const refusedBody = { personImageId: 'img_rate_limit_probe', garmentImageId: 'img_rate_limit_probe', consent: false };

/**
 * A fresh account (test control), or else the primary one once its starts window is empty: the
 * earlier tests' starts must not count toward the 12 this test sends.
 */
async function accountAtDocumentedLimits(t: ConformanceContext): Promise<Actor> {
  if (t.target.control) return t.target.freshAccount();
  await t.target.pacer.idle(t.target.primary.key, 'starts');
  return t.target.primary;
}

async function waitRetryAfter(t: ConformanceContext, seconds: number): Promise<void> {
  if (t.target.control) await t.target.control.advanceClock(seconds);
  else await new Promise((r) => setTimeout(r, seconds * 1000));
}

/**
 * Fills the starts window with `n` requests alternating between the two create endpoints. Refused
 * requests are tried first; if the target does not count them, real starts fill the window.
 */
async function fillStarts(t: ConformanceContext, api: Api, actor: Actor, n: number, endpoints: 'async' | 'both'): Promise<'refused' | 'real'> {
  const sync = (i: number) => endpoints === 'both' && i % 2 === 1;
  for (let i = 0; i < n; i++) {
    const ex = await api.start(actor, refusedBody, { pace: false, sync: sync(i) });
    expect(statusOf(ex)).not.toBe(429);
  }
  const probe = await api.start(actor, refusedBody, { pace: false });
  if (statusOf(probe) === 429) return 'refused';
  await t.vitest.annotate('refused requests do not count toward the starts window; filling it with real starts');
  if (!t.target.control) t.skip('the target counts only accepted starts, and filling the window would spend credits on the primary account');
  const fresh = await t.target.freshAccount();
  const body = await idBody(api, fresh);
  for (let i = 0; i < n; i++) {
    const ex = await api.start(fresh, body, { pace: false, sync: sync(i) });
    expect(statusOf(ex)).toBe(200);
  }
  Object.assign(actor, fresh);
  return 'real';
}

describe('rate limits', () => {
  conformance(
    'answers the 13th start within a minute with 429 RATE_LIMITED and an integer Retry-After',
    { covers: ['LIMIT-STARTS-12-PER-MINUTE', 'LIMIT-429-RETRY-AFTER', 'ERR-RATE-LIMITED'], needs: [], starts: 14, timeoutMs: 300_000 },
    async (t) => {
      const api = new Api(t.target);
      const actor = { ...(await accountAtDocumentedLimits(t)) };
      const how = await fillStarts(t, api, actor, 12, 'async');
      const thirteenth = await api.start(actor, how === 'real' ? await idBody(api, actor) : refusedBody, { pace: false });
      expect(statusOf(thirteenth)).toBe(429);
      expect((thirteenth.response?.json as { code?: string }).code).toBe('RATE_LIMITED');
      expect(retryAfter(thirteenth)).toBeGreaterThanOrEqual(1);
      expect(retryAfter(thirteenth)).toBeLessThanOrEqual(60);
      await t.vitest.annotate(`Retry-After on the 13th start: ${retryAfter(thirteenth)} s (${how} requests filled the window)`);
    },
  );

  conformance(
    'shares the starts window between POST /tryons and POST /tryons/sync',
    { covers: ['LIMIT-STARTS-12-PER-MINUTE', 'SYNC-SAME-CONTRACT-AS-CREATE'], needs: ['test-control'], starts: 14 },
    async (t) => {
      const api = new Api(t.target);
      const actor = { ...(await t.target.freshAccount()) };
      const how = await fillStarts(t, api, actor, 12, 'both');
      const body = how === 'real' ? await idBody(api, actor) : refusedBody;
      expect(statusOf(await api.start(actor, body, { pace: false, sync: true }))).toBe(429);
      expect(statusOf(await api.start(actor, body, { pace: false }))).toBe(429);
    },
  );

  conformance(
    'lets a start through after waiting Retry-After, and not before',
    { covers: ['LIMIT-429-RETRY-AFTER', 'ERR-CLIENT-HONOURS-RETRY-AFTER'], needs: [], starts: 16, timeoutMs: 300_000 },
    async (t) => {
      const api = new Api(t.target);
      const actor = { ...(await accountAtDocumentedLimits(t)) };
      const how = await fillStarts(t, api, actor, 12, 'async');
      const body = how === 'real' ? await idBody(api, actor) : refusedBody;
      const limited = await api.start(actor, body, { pace: false });
      expect(statusOf(limited)).toBe(429);
      const wait = retryAfter(limited);
      if (wait > 1) {
        await waitRetryAfter(t, wait - 1);
        const early = await api.start(actor, body, { pace: false });
        expect(statusOf(early)).toBe(429);
        await waitRetryAfter(t, retryAfter(early));
      } else {
        await waitRetryAfter(t, wait);
      }
      const after = await api.start(actor, body, { pace: false });
      expect(statusOf(after)).not.toBe(429);
    },
  );

  conformance(
    'limits polls to 60 a minute and uploads to 30 a minute per account',
    { covers: ['LIMIT-POLLS-60-PER-MINUTE', 'LIMIT-UPLOADS-30-PER-MINUTE', 'LIMIT-429-RETRY-AFTER'], needs: ['test-control'], polls: 61, uploads: 31 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.target.freshAccount();
      const polls: Exchange[] = [];
      for (let i = 0; i < 61; i++) polls.push(await api.get(actor, `ton_rate_limit_probe_${i}`, { pace: false }));
      expect(polls.slice(0, 60).map(statusOf).filter((s) => s === 429)).toEqual([]);
      expect(statusOf(polls[60]!)).toBe(429);
      const png = await makeGarmentImage({ format: 'png', width: 64, height: 64 });
      const uploads: Exchange[] = [];
      for (let i = 0; i < 31; i++) uploads.push(await api.upload(actor, png, { filename: 'tiny.png', contentType: 'image/png', pace: false }));
      expect(uploads.slice(0, 30).map(statusOf).filter((s) => s !== 200)).toEqual([]);
      expect(statusOf(uploads[30]!)).toBe(429);
    },
  );

  conformance(
    'keeps the limits per account: a limited account does not limit another',
    { covers: ['LIMIT-RATES-PER-ACCOUNT'], needs: ['test-control'], starts: 14 },
    async (t) => {
      const api = new Api(t.target);
      const actor = { ...(await t.target.freshAccount()) };
      const how = await fillStarts(t, api, actor, 12, 'async');
      expect(statusOf(await api.start(actor, how === 'real' ? await idBody(api, actor) : refusedBody, { pace: false }))).toBe(429);
      const other = await t.target.freshAccount();
      expect(statusOf(await api.start(other, refusedBody, { pace: false }))).not.toBe(429);
    },
  );
});
