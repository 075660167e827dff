/** Spec: Authentication 1, 4, 6, 7; Errors (INVALID_API_KEY). */
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { dimensions, type Alternative } from '../contract/alternatives.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { exercised } from './alternatives.ts';
import { Api } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import { precondition } from './rules.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

type Operation = {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly upload?: true;
};

/**
 * Every operation, each with a request whose only fault is its Authorization (the order of checks is
 * open, so a probe must not carry a second fault): creates with a valid body and key (the unknown ids
 * are scoped to an account, so only an authenticated request can be judged on them), and an upload
 * with a real image in a proper form.
 */
const operations: readonly Operation[] = [
  {
    name: 'createTryOn',
    method: 'POST',
    path: '/tryons',
    body: { personImageId: 'img_x', garmentImageId: 'img_y', consent: true },
  },
  {
    name: 'createTryOnSync',
    method: 'POST',
    path: '/tryons/sync',
    body: { personImageId: 'img_x', garmentImageId: 'img_y', consent: true },
  },
  { name: 'getTryOn', method: 'GET', path: '/tryons/ton_doesnotexist' },
  { name: 'uploadImage', method: 'POST', path: '/images', upload: true },
  { name: 'getAccount', method: 'GET', path: '/account' },
];

/**
 * A 1×1 PNG: a valid image, and small enough to be written whole before a target that answers 401
 * without reading the body closes the connection (a larger body would end in EPIPE on our side).
 */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWM4wcUFAAJ6AN0yOm/LAAAAAElFTkSuQmCC',
  'base64',
);

/**
 * A multipart form with the one `file` field, as one buffer with a length, so it is written at once (a
 * streamed FormData is not).
 */
const uploadBoundary = 'tryonConformanceAuthProbe4d2a';
const uploadForm = Buffer.concat([
  Buffer.from(
    `--${uploadBoundary}\r\nContent-Disposition: form-data; name="file"; filename="pixel.png"\r\nContent-Type: image/png\r\n\r\n`,
  ),
  tinyPng,
  Buffer.from(`\r\n--${uploadBoundary}--\r\n`),
]);

/** Sends `op` with exactly this Authorization header value (`undefined`: none). */
async function sendWith(
  t: ConformanceContext,
  op: Operation,
  authorization: string | undefined,
  idempotencyKey: string,
): Promise<Exchange> {
  const ex = await t.target.send({
    method: op.method,
    path: op.path,
    headers: {
      ...(authorization !== undefined && { authorization }),
      ...(op.body !== undefined && { 'content-type': 'application/json', 'idempotency-key': idempotencyKey }),
      ...(op.upload && { 'content-type': `multipart/form-data; boundary=${uploadBoundary}` }),
    },
    ...(op.body !== undefined && { rawBody: JSON.stringify(op.body) }),
    ...(op.upload && { rawBody: uploadForm }),
    operationId: op.name,
  });
  // No answer at all (a transport error on our side) judges nothing.
  if (!ex.response) t.inconclusive(`${op.method} ${op.path} got no answer: ${ex.error ?? 'no response'}`);
  return ex;
}

const codeOf = (ex: Exchange): unknown => (ex.response?.json as { code?: unknown } | undefined)?.code;

type BadAuthorization = { label: string; header: string | undefined; missing: boolean };

/** Authorization values that must never authenticate; `missing` ones carry no key at all. */
function badAuthorization(valid: string): fc.Arbitrary<BadAuthorization> {
  const flip = (key: string, i: number) => key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
  return fc.oneof(
    fc.constant({ label: 'missing', header: undefined, missing: true }),
    fc.constant({ label: 'empty', header: '', missing: true }),
    fc.constant({ label: 'Bearer only', header: 'Bearer', missing: true }),
    fc
      .string({ maxLength: 60 })
      .map((s) => ({ label: 'random Bearer', header: `Bearer ${s.replace(/[\r\n]/g, '')}`, missing: false })),
    fc.constant({
      label: 'Basic scheme',
      header: `Basic ${Buffer.from(`${valid}:`).toString('base64')}`,
      missing: false,
    }),
    fc.constant({ label: 'key without scheme', header: valid, missing: false }),
    fc
      .integer({ min: 0, max: valid.length - 1 })
      .map((i) => ({ label: `key with char ${i} changed`, header: `Bearer ${flip(valid, i)}`, missing: false })),
    fc.constant({ label: 'truncated key', header: `Bearer ${valid.slice(0, -1)}`, missing: false }),
    // "Keys have a fixed prefix followed by `_live_` and a secret part" (Authentication 1): another prefix is
    // not this provider's key, whatever follows it.
    fc.constant({ label: 'key with another prefix', header: `Bearer ${flip(valid, 0)}`, missing: false }),
  );
}

describe('authentication', () => {
  conformance(
    'gives 401 INVALID_API_KEY for any missing or malformed Authorization, on every operation',
    { covers: ['AUTH-BEARER-REQUIRED', 'ERR-INVALID-API-KEY'], needs: [] },
    async (t) => {
      const probe = async (op: Operation, auth: BadAuthorization) => {
        const ex = await sendWith(t, op, auth.header, 'auth-probe-0001');
        // A request with no key: "Every request carries `Authorization: Bearer <API_KEY>`" and
        // "A missing, malformed or revoked key gives 401 with code `INVALID_API_KEY`" (Authentication 1, 4).
        // Any other bad value: "401 | INVALID_API_KEY | key missing, malformed or revoked" (Errors).
        const id: RequirementId = auth.missing ? 'AUTH-BEARER-REQUIRED' : 'ERR-INVALID-API-KEY';
        t.must(id, () =>
          expect({
            op: op.name,
            auth: auth.label,
            status: ex.response?.status ?? ex.error,
            code: codeOf(ex),
          }).toEqual({ op: op.name, auth: auth.label, status: 401, code: 'INVALID_API_KEY' }),
        );
      };
      // No Authorization header at all, on every operation, whatever the property draws at a small profile.
      for (const op of operations) await probe(op, { label: 'missing', header: undefined, missing: true });
      await t.check(
        fc.asyncProperty(fc.constantFrom(...operations), badAuthorization(t.target.primary.key), probe),
        60,
      );
    },
  );

  conformance(
    'gives 401 INVALID_API_KEY for a revoked key, on every operation',
    { covers: ['AUTH-REVOKED-KEY-401'] },
    async (t) => {
      const revoked = t.target.revokedKey ?? t.skip('no revoked key');
      for (const op of operations) {
        const ex = await sendWith(t, op, `Bearer ${revoked}`, 'auth-probe-0002');
        // "A missing, malformed or revoked key gives 401 with code `INVALID_API_KEY`." (Authentication 4)
        t.must('AUTH-REVOKED-KEY-401', () =>
          expect([op.name, ex.response?.status ?? ex.error, codeOf(ex)]).toEqual([op.name, 401, 'INVALID_API_KEY']),
        );
      }
    },
  );

  conformance(
    'accepts the configured key, and GET /account answers it',
    {
      covers: [
        'AUTH-BEARER-REQUIRED',
        'ACCOUNT-GET-READS-CREDITS',
        'ACCOUNT-GET-SHAPE-IMPL-DEFINED',
        'ACCOUNT-RECORD-FIELDS-IMPL-DEFINED',
      ],
    },
    async (t) => {
      const ex = await t.target.send({
        method: 'GET',
        path: '/account',
        key: t.target.primary.key,
        operationId: 'getAccount',
      });
      const status = ex.response?.status ?? ex.error;
      // "All requests need `Authorization: Bearer <API_KEY>`": the key of the account authenticates.
      t.must('AUTH-BEARER-REQUIRED', () =>
        expect({ 'GET /account with the configured key': status }).not.toEqual({
          'GET /account with the configured key': 401,
        }),
      );
      // GET /account is "Referred to as the way to read the number of credits left on the account";
      // its status, body shape and errors are "not shown", so only a success is asked for, and the shape is recorded.
      t.must('ACCOUNT-GET-READS-CREDITS', () =>
        expect({
          'GET /account answered with a success': typeof status === 'number' && status >= 200 && status < 300,
        }).toEqual({ 'GET /account answered with a success': true }),
      );
      const json = ex.response?.json;
      const shape =
        typeof json === 'object' && json !== null && !Array.isArray(json)
          ? `{${Object.keys(json).join(', ')}}`
          : (ex.response?.headers['content-type'] ?? 'no body');
      t.choose('account-shape', `${String(status)} ${shape}`, 'ACCOUNT-GET-SHAPE-IMPL-DEFINED');
    },
  );
});

/** A create body from `own` ids with the image at `image` swapped for `id` (both images when `image` is absent). */
const withImageId = (own: Record<string, unknown>, id: Record<string, unknown>, image?: Alternative<'image'>) =>
  image === undefined ? { ...own, ...id } : { ...own, [`${image}ImageId`]: id[`${image}ImageId`] };

/**
 * Starts `body` on `endpoint` as `actor` and judges it refused with 400 INVALID_IMAGE_ID under `rule`; a credit
 * is held for a target that starts it anyway, and an account without credits (402 may come first) judges nothing.
 */
async function expectInvalidImageId(
  t: ConformanceContext,
  api: Api,
  actor: Actor,
  what: string,
  body: Record<string, unknown>,
  endpoint: Alternative<'endpoint'>,
  rule: RequirementId,
): Promise<void> {
  t.reserve(1);
  const ex = await api.start(actor, body, { sync: endpoint === 'POST /tryons/sync' });
  if (ex.response?.status !== 200 && ex.response?.status !== 202) t.target.budget.giveBack(1);
  if (ex.response?.status === 402)
    t.inconclusive(`${what} on ${endpoint}: 402, the account has no credits, so the image id rule was not judged`);
  t.must(rule, () =>
    expect({ [`${what} on ${endpoint}`]: [ex.response?.status ?? ex.error, codeOf(ex)] }).toEqual({
      [`${what} on ${endpoint}`]: [400, 'INVALID_IMAGE_ID'],
    }),
  );
  exercised(t, 'endpoint', endpoint, [rule]);
}

describe('ownership', () => {
  conformance(
    "refuses another account's image id, as the person, the garment or both, on each create endpoint, with 400 INVALID_IMAGE_ID, and its try-on with 404 NOT_FOUND",
    {
      covers: ['AUTH-FOREIGN-IMAGE-ID-INVALID', 'AUTH-FOREIGN-TRYON-NOT-FOUND', 'ERR-INVALID-IMAGE-ID'],
      needs: ['second-account'],
      credits: 6,
      starts: 6,
      polls: 3,
      uploads: 4,
    },
    async (t) => {
      const second = t.target.second ?? t.skip('no second account');
      const api = new Api(t.target);
      const owner = await t.ownAccount();
      const body = await idBody(api, owner);
      const own = await idBody(api, second);
      // "another account's image id gives `INVALID_IMAGE_ID`" (Authentication 6), a 400 in the Errors table;
      // "Only the account that uploaded an image may use its id": either image, on either create endpoint
      // ("Same headers, body, rules ... as `POST /tryons`").
      const rule = 'AUTH-FOREIGN-IMAGE-ID-INVALID';
      await expectInvalidImageId(t, api, second, "both images another account's", body, 'POST /tryons', rule);
      for (const image of dimensions.image.alternatives) {
        for (const endpoint of dimensions.endpoint.alternatives) {
          const what = `the ${image} image another account's, the other its own`;
          await expectInvalidImageId(t, api, second, what, withImageId(own, body, image), endpoint, rule);
          exercised(t, 'image', image, [rule]);
        }
      }
      t.reserve(1);
      const created = await api.start(owner, body);
      const id = (created.response?.json as { id?: unknown } | undefined)?.id;
      const started = created.response?.status === 200 && typeof id === 'string';
      if (!started) t.target.budget.giveBack(1);
      precondition(
        started && typeof id === 'string',
        `the owner's own start gave no try-on to read (${created.response?.status ?? created.error}), so the foreign read cannot be tried`,
      );
      const foreignRead = await api.get(second, id);
      // "another account's try-on id gives `NOT_FOUND`" (Authentication 6), a 404 in the Errors table.
      t.must('AUTH-FOREIGN-TRYON-NOT-FOUND', () =>
        expect([foreignRead.response?.status ?? foreignRead.error, codeOf(foreignRead)]).toEqual([404, 'NOT_FOUND']),
      );
      const final = await api.waitFinal(owner, id);
      if ((final.response?.json as { status?: string })?.status !== 'success') t.target.budget.giveBack(1);
    },
  );

  conformance(
    'refuses an unknown image id, as the person or the garment, on each create endpoint, with 400 INVALID_IMAGE_ID',
    { covers: ['ERR-INVALID-IMAGE-ID'], credits: 4, starts: 4, uploads: 2, typical: { credits: 0, uploads: 0 } },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const own = await idBody(api, actor);
      // Ids of the shape an upload gives ("Begins with `img_`") that no upload gave.
      const unknown = { personImageId: 'img_never_uploaded_person', garmentImageId: 'img_never_uploaded_garment' };
      for (const image of dimensions.image.alternatives) {
        for (const endpoint of dimensions.endpoint.alternatives) {
          // "400 | INVALID_IMAGE_ID | unknown, older than 24 hours, or uploaded by another account".
          const what = `an unknown ${image} image id, the other image the account's own`;
          await expectInvalidImageId(
            t,
            api,
            actor,
            what,
            withImageId(own, unknown, image),
            endpoint,
            'ERR-INVALID-IMAGE-ID',
          );
          exercised(t, 'image', image, ['ERR-INVALID-IMAGE-ID']);
        }
      }
    },
  );
});
