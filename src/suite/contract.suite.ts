/**
 * The rest of the contract that a black box can see: the create and read bodies, the documented
 * error lists, the scenario rejections, the account balance, key and URL formats, signed image URLs,
 * raised limits and result latency (spec: Resources, Endpoints, Errors, Authentication, Limits,
 * Versioning, What the service does).
 */
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { documentedErrors, listOperations } from '../spec/openapi.ts';
import { Api } from './api.ts';
import { conformance } from './conformance.ts';
import { idBody } from './uploaded-inputs.ts';

const body = (ex: Exchange): Record<string, unknown> => (ex.response?.json ?? {}) as Record<string, unknown>;
const statusOf = (ex: Exchange) => ex.response?.status ?? ex.error;



/** The codes an operation documents for a status, from openapi.yaml. */
function codesFor(operationId: string, status: number): string[] {
  const op = listOperations().find((o) => o.operationId === operationId);
  return op ? documentedErrors(op).filter((e) => e.status === status).map((e) => e.code) : [];
}

describe('contract', () => {
  conformance(
    'answers a start at once with {id, status: pending, pollUrl} under /api/v1, from uploaded ids alone, and reads it back as {id, status, resultUrl}',
    {
      covers: ['CREATE-RETURNS-IMMEDIATELY', 'CREATE-RESPONSE-STATUS-PENDING', 'CREATE-UPLOADED-IDS-EXEMPT-FROM-URL-RULES', 'GET-RESPONSE-200-BODY', 'VER-BASE-URL-V1', 'RES-IMAGE-ID-PERSON-OR-GARMENT'],
      needs: [],
      credits: 2,
      starts: 2,
      polls: 30,
      uploads: 2,
    },
    async (t) => {
      t.reserve(2);
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const ids = await idBody(api, actor);
      expect(t.target.config.baseUrl).toMatch(/\/api\/v1$/);
      // The same uploaded photo serves as the person in one try-on and as the garment in another.
      const swapped = { personImageId: ids.personImageId, garmentImageId: ids.personImageId, consent: true };
      const results: string[] = [];
      for (const request of [ids, swapped]) {
        const started = performance.now();
        const created = await api.start(actor, request);
        const createMs = performance.now() - started;
        expect(statusOf(created)).toBe(200);
        const { id, status, pollUrl } = body(created);
        expect({ status, pollUrl, hasResultUrl: 'resultUrl' in body(created) }).toEqual({ status: 'pending', pollUrl: `/api/v1/tryons/${String(id)}`, hasResultUrl: false });
        const read = await api.get(actor, String(id));
        expect(Object.keys(body(read)).filter((k) => ['id', 'status', 'resultUrl'].includes(k)).sort()).toEqual(['id', 'resultUrl', 'status']);
        const final = await api.waitFinal(actor, String(id));
        results.push(String(body(final).status));
        await t.vitest.annotate(`create answered in ${createMs.toFixed(0)} ms; the try-on finished ${body(final).status}`);
      }
      expect(results.every((s) => s === 'success' || s === 'failed')).toBe(true);
      t.target.budget.giveBack(results.filter((s) => s !== 'success').length);
    },
  );

  conformance(
    'rejects scenario images with 422 PERSON_PHOTO_REJECTED, IMAGE_REJECTED and GARMENT_REJECTED, and charges nothing',
    { covers: ['ERR-PERSON-PHOTO-REJECTED', 'ERR-IMAGE-REJECTED', 'ERR-GARMENT-REJECTED', 'STATE-NOT-STARTED-NO-CREDIT-NO-STATE'], needs: ['scenarios'], credits: 3, starts: 3, uploads: 4 },
    async (t) => {
      t.reserve(3);
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const before = await api.credits(actor);
      for (const [scenario, code] of [
        ['person-rejected', 'PERSON_PHOTO_REJECTED'],
        ['image-rejected', 'IMAGE_REJECTED'],
        ['garment-rejected', 'GARMENT_REJECTED'],
      ] as const) {
        const ex = await api.start(actor, await idBody(api, actor, scenario));
        expect({ scenario, status: statusOf(ex), code: body(ex).code }).toEqual({ scenario, status: 422, code });
      }
      expect(await api.credits(actor)).toBe(before);
      t.target.budget.giveBack(3);
    },
  );

  conformance(
    'answers every refused request with a documented status and code, and a human-readable error',
    { covers: ['CREATE-ERROR-LIST', 'GET-ERROR-LIST', 'ERR-ERROR-HUMAN-READABLE', 'ERR-ENVELOPE-SHAPE'], needs: [], starts: 6, polls: 2, uploads: 1 },
    async (t) => {
      const api = new Api(t.target);
      const actor = t.target.primary;
      const refused: Array<[string, Exchange]> = [
        ['createTryOn', await api.start(actor, { personImageId: 'img_unknown', garmentImageId: 'img_unknown', consent: false })],
        ['createTryOn', await api.start(actor, { personImageId: 'img_unknown', garmentImageId: 'img_unknown', consent: true }, { idempotencyKey: null })],
        ['createTryOn', await api.start(actor, { personImageId: 'img_unknown', garmentImageId: 'img_unknown', consent: true })],
        ['createTryOn', await api.start(actor, { personImageUrl: 'http://images.example.com/p.jpg', garmentImageId: 'img_unknown', consent: true })],
        ['createTryOnSync', await api.start(actor, { personImageId: 'img_unknown', garmentImageId: 'img_unknown', consent: false }, { sync: true })],
        ['getTryOn', await api.get(actor, 'ton_no_such_tryon')],
        ['getTryOn', await t.target.send({ method: 'GET', path: '/tryons/ton_no_such_tryon', operationId: 'getTryOn' })],
      ];
      for (const [operationId, ex] of refused) {
        const status = ex.response?.status ?? 0;
        const { code, error } = body(ex);
        expect({ operationId, status, documented: codesFor(operationId, status).includes(String(code)) }).toEqual({ operationId, status, documented: true });
        expect(typeof error === 'string' && error.trim().length > 0).toBe(true);
      }
    },
  );

  conformance(
    'reads the account balance as an integer of credits, separate for each account',
    { covers: ['ACCOUNT-OWN-CREDIT-BALANCE', 'ACCOUNT-GET-SHAPE-IMPL-DEFINED', 'ACCOUNT-RECORD-FIELDS-IMPL-DEFINED'], needs: ['second-account'], credits: 1, starts: 1, polls: 30, uploads: 2 },
    async (t) => {
      t.reserve(1);
      const api = new Api(t.target);
      const second = t.target.second ?? t.skip('no second account');
      const actor = await t.ownAccount();
      const read = await t.target.send({ method: 'GET', path: '/account', key: actor.key, operationId: 'getAccount' });
      expect(statusOf(read)).toBe(200);
      const credits = body(read).credits;
      expect(Number.isInteger(credits) && (credits as number) >= 0).toBe(true);
      await t.vitest.annotate(`GET /account fields: ${Object.keys(body(read)).join(', ')}`);
      const secondBefore = await api.credits(second);
      const created = await api.start(actor, await idBody(api, actor));
      expect(statusOf(created)).toBe(200);
      const final = await api.waitFinal(actor, String(body(created).id));
      expect(await api.credits(second)).toBe(secondBefore);
      if (body(final).status !== 'success') t.target.budget.giveBack(1);
    },
  );

  conformance(
    'issues API keys of the form <prefix>_live_<secret>',
    { covers: ['AUTH-KEY-LIVE-FORMAT'], needs: [] },
    async (t) => {
      const keys = [t.target.primary.key, ...(t.target.second ? [t.target.second.key] : [])];
      for (const key of keys) expect(key.replace(/(_live_).+$/, '$1…')).toMatch(/^[A-Za-z0-9]+_live_…$/);
    },
  );

  conformance(
    'lets an account whose limit was raised start more than 12 a minute',
    { covers: ['LIMIT-STARTS-RAISED-ON-REQUEST'], needs: ['test-control'], starts: 20 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.target.freshAccount({ starts: 30 });
      const refusedBody = { personImageId: 'img_raised_probe', garmentImageId: 'img_raised_probe', consent: false };
      const statuses: unknown[] = [];
      for (let i = 0; i < 20; i++) statuses.push(statusOf(await api.start(actor, refusedBody, { pace: false })));
      expect(statuses.filter((s) => s === 429)).toEqual([]);
    },
  );

  conformance(
    'accepts a signed image URL (query parameters) while it is valid',
    { covers: ['CREATE-URL-SIGNED-ACCEPTED'], needs: ['fixture-host'], credits: 1, starts: 1, polls: 30, uploads: 1 },
    async (t) => {
      t.reserve(1);
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const ids = await idBody(api, actor);
      const signed = `${api.fixtureUrl('person.jpg')}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=3600&X-Amz-Signature=9f2c41d0e7b1`;
      const created = await api.start(actor, { personImageUrl: signed, garmentImageId: ids.garmentImageId, consent: true });
      expect(statusOf(created)).toBe(200);
      const final = await api.waitFinal(actor, String(body(created).id));
      if (body(final).status !== 'success') t.target.budget.giveBack(1);
    },
  );

  conformance(
    'finishes a try-on in under 30 seconds',
    { covers: ['SVC-MOST-RESULTS-UNDER-30-SECONDS'], needs: [], credits: 1, starts: 1, polls: 15, uploads: 2 },
    async (t) => {
      t.reserve(1);
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const started = performance.now();
      const created = await api.start(actor, await idBody(api, actor));
      expect(statusOf(created)).toBe(200);
      const final = await api.waitFinal(actor, String(body(created).id), 60_000);
      const seconds = (performance.now() - started) / 1000;
      await t.vitest.annotate(`start to ${String(body(final).status)} in ${seconds.toFixed(1)} s`);
      expect(body(final).status).not.toBe('pending');
      expect(seconds).toBeLessThan(30);
      if (body(final).status !== 'success') t.target.budget.giveBack(1);
    },
  );
});
