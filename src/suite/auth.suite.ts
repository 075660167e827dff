/** Spec: Authentication 1, 4, 6, 7; Errors (INVALID_API_KEY). */
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { Api } from './api.ts';
import { conformance } from './conformance.ts';
import { idBody } from './uploaded-inputs.ts';

type Operation = { readonly name: string; readonly method: string; readonly path: string; readonly body?: unknown };

const operations: readonly Operation[] = [
  { name: 'createTryOn', method: 'POST', path: '/tryons', body: { personImageId: 'img_x', garmentImageId: 'img_y', consent: true } },
  { name: 'createTryOnSync', method: 'POST', path: '/tryons/sync', body: { personImageId: 'img_x', garmentImageId: 'img_y', consent: true } },
  { name: 'getTryOn', method: 'GET', path: '/tryons/ton_doesnotexist' },
  { name: 'uploadImage', method: 'POST', path: '/images' },
  { name: 'getAccount', method: 'GET', path: '/account' },
];

/** Authorization values that must never authenticate. */
function badAuthorization(valid: string, revoked: string | undefined): fc.Arbitrary<{ label: string; header: string | undefined }> {
  const flip = (key: string, i: number) => key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
  return fc.oneof(
    fc.constant({ label: 'missing', header: undefined }),
    fc.constant({ label: 'empty', header: '' }),
    fc.constant({ label: 'Bearer only', header: 'Bearer' }),
    fc.string({ maxLength: 60 }).map((s) => ({ label: 'random Bearer', header: `Bearer ${s.replace(/[\r\n]/g, '')}` })),
    fc.constant({ label: 'Basic scheme', header: `Basic ${Buffer.from(`${valid}:`).toString('base64')}` }),
    fc.constant({ label: 'key without scheme', header: valid }),
    fc.integer({ min: 0, max: valid.length - 1 }).map((i) => ({ label: `key with char ${i} changed`, header: `Bearer ${flip(valid, i)}` })),
    fc.constant({ label: 'truncated key', header: `Bearer ${valid.slice(0, -1)}` }),
    ...(revoked ? [fc.constant({ label: 'revoked key', header: `Bearer ${revoked}` })] : []),
  );
}

describe('authentication', () => {
  conformance(
    'gives 401 INVALID_API_KEY for any missing or malformed Authorization, on every operation',
    { covers: ['AUTH-BEARER-REQUIRED', 'ERR-INVALID-API-KEY'], needs: [] },
    async (t) => {
      const { target } = t;
      await t.check(
        fc.asyncProperty(fc.constantFrom(...operations), badAuthorization(target.primary.key, undefined), async (op, auth) => {
          const ex = await target.send({
            method: op.method,
            path: op.path,
            headers: {
              ...(auth.header !== undefined && { authorization: auth.header }),
              ...(op.body !== undefined && { 'content-type': 'application/json', 'idempotency-key': 'auth-probe-0001' }),
            },
            ...(op.body !== undefined && { rawBody: JSON.stringify(op.body) }),
            operationId: op.name,
          });
          expect({ op: op.name, auth: auth.label, status: ex.response?.status, code: (ex.response?.json as { code?: string })?.code }).toEqual({
            op: op.name,
            auth: auth.label,
            status: 401,
            code: 'INVALID_API_KEY',
          });
        }),
        60,
      );
    },
  );

  conformance('gives 401 INVALID_API_KEY for a revoked key, on every operation', { covers: ['AUTH-REVOKED-KEY-401'] }, async (t) => {
    const revoked = t.target.revokedKey ?? t.skip('no revoked key');
    for (const op of operations) {
      const ex = await t.target.send({
        method: op.method,
        path: op.path,
        key: revoked,
        ...(op.body !== undefined && { json: op.body, headers: { 'idempotency-key': 'auth-probe-0002' } }),
        operationId: op.name,
      });
      expect([op.name, ex.response?.status, (ex.response?.json as { code?: string })?.code]).toEqual([op.name, 401, 'INVALID_API_KEY']);
    }
  });

  conformance('accepts the configured key', { covers: ['AUTH-BEARER-REQUIRED', 'ACCOUNT-GET-READS-CREDITS'] }, async (t) => {
    const credits = await new Api(t.target).credits(t.target.primary);
    expect(credits).toBeGreaterThanOrEqual(0);
  });
});

describe('ownership', () => {
  conformance(
    "refuses another account's image id with 400 INVALID_IMAGE_ID and its try-on with 404 NOT_FOUND",
    { covers: ['AUTH-FOREIGN-IMAGE-ID-INVALID', 'AUTH-FOREIGN-TRYON-NOT-FOUND', 'ERR-INVALID-IMAGE-ID'], needs: ['second-account'], credits: 2, starts: 2, polls: 3, uploads: 2 },
    async (t) => {
      const second = t.target.second ?? t.skip('no second account');
      t.reserve(2);
      const api = new Api(t.target);
      const owner = await t.ownAccount();
      const body = await idBody(api, owner);
      const foreignStart = await api.start(second, body);
      expect([foreignStart.response?.status, (foreignStart.response?.json as { code?: string })?.code]).toEqual([400, 'INVALID_IMAGE_ID']);
      t.target.budget.giveBack(1);
      const created = await api.start(owner, body);
      expect(created.response?.status).toBe(200);
      const id = String((created.response?.json as { id?: string }).id);
      const foreignRead = await api.get(second, id);
      expect([foreignRead.response?.status, (foreignRead.response?.json as { code?: string })?.code]).toEqual([404, 'NOT_FOUND']);
      const final = await api.waitFinal(owner, id);
      if ((final.response?.json as { status?: string })?.status !== 'success') t.target.budget.giveBack(1);
    },
  );
});
