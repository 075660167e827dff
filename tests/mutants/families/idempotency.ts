/** Mutants of the idempotency family (spec: POST /tryons rule 3; POST /tryons/sync; Errors rule 2). */
import { createHash, randomBytes } from 'node:crypto';
import type { Mutation, ProxiedResponse } from '../mutating-proxy.ts';
import {
  codeOf,
  isAsyncCreate,
  isCreate,
  isSyncCreate,
  json,
  keyOf,
  perProxy,
  withDerivedKey,
  withJson,
} from '../helpers.ts';

const storedErrors = perProxy(() => new Map<string, ProxiedResponse>());

export const idempotencyMutants: readonly Mutation[] = [
  {
    name: 'replay-creates-new-tryon',
    family: 'idempotency',
    breaks: ['CREATE-IDEMPOTENCY-REPLAY', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE', 'SYNC-SAME-KEY-PICKS-UP-AFTER-DROP'],
    does: 'the Idempotency-Key is ignored: every request starts a new try-on',
    request: (req) => {
      // Only valid keys: an invalid one must still get 400 MISSING_IDEMPOTENCY_KEY.
      if (!isCreate(req) || !/^[A-Za-z0-9_-]{8,128}$/.test(req.headers['idempotency-key'] ?? '')) return req;
      return {
        ...req,
        headers: { ...req.headers, 'idempotency-key': `fresh-${randomBytes(9).toString('base64url')}` },
      };
    },
  },
  {
    name: 'replay-charges-again',
    family: 'idempotency',
    breaks: ['CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'],
    does: 'a replay returns the earlier try-on, as it should, but takes another credit',
    response: async (res, req, ctx) => {
      const key = keyOf(req);
      const idem = req.headers['idempotency-key'];
      const id = json(res)?.id;
      if (!isCreate(req) || (res.status !== 200 && res.status !== 202) || key === undefined || idem === undefined)
        return res;
      const account = ctx.traffic.accountOf(key);
      if (account !== undefined && typeof id === 'string' && ctx.traffic.idempotency.get(`${key}\0${idem}`) === id)
        await ctx.adjustCredits(account, -1);
      return res;
    },
  },
  {
    name: 'keys-not-shared-between-endpoints',
    family: 'idempotency',
    breaks: ['SYNC-SAME-CONTRACT-AS-CREATE'],
    does: 'POST /tryons/sync keeps its Idempotency-Keys apart from POST /tryons: a key used on both starts two try-ons',
    request: (req) => (isSyncCreate(req) ? withDerivedKey(req, 'sync-namespace') : req),
  },
  {
    name: 'transient-error-replayed',
    family: 'idempotency',
    breaks: ['ERR-TRANSIENT-ERRORS-NOT-REPLAYED'],
    does: 'a 500, 502 or 503 binds the Idempotency-Key: a retry with that key gets the same error again',
    request: (req, ctx) => {
      const stored = isCreate(req)
        ? storedErrors(ctx).get(`${keyOf(req)}\0${req.headers['idempotency-key']}`)
        : undefined;
      return stored ?? req;
    },
    response: (res, req, ctx) => {
      if (isCreate(req) && [500, 502, 503].includes(res.status) && req.headers['idempotency-key'] !== undefined) {
        storedErrors(ctx).set(`${keyOf(req)}\0${req.headers['idempotency-key']}`, res);
      }
      return res;
    },
  },
  {
    name: 'key-reused-with-other-body-starts-new',
    family: 'idempotency',
    // What a different body gets is not shown (POST /tryons rule 4), but "one key can never be charged twice" (Errors rule 2).
    breaks: ['CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'],
    does: 'a key reused with a different body starts a second try-on instead of a 4xx or a replay',
    response: (res, req, ctx) => {
      if (!isCreate(req) || res.status !== 422 || codeOf(res) !== 'IDEMPOTENCY_KEY_REUSED') return res;
      return ctx.upstream(withDerivedKey(req, createHash('sha256').update(req.body).digest('hex')));
    },
  },
  {
    name: 'replay-answers-current-state',
    family: 'idempotency',
    // The current state is still "the earlier try-on"; what it breaks is the create response: "status | always `pending`", resultUrl "Absent from the create response".
    breaks: ['CREATE-RESPONSE-STATUS-PENDING', 'RES-RESULT-URL-ABSENT-FROM-CREATE'],
    does: "a replay on POST /tryons answers the try-on's current state (e.g. success with resultUrl) instead of repeating the create answer",
    response: async (res, req, ctx) => {
      const id = json(res)?.id;
      if (
        !isAsyncCreate(req) ||
        res.status !== 200 ||
        res.headers['idempotent-replayed'] !== 'true' ||
        typeof id !== 'string'
      )
        return res;
      const read = await ctx.upstream({
        method: 'GET',
        path: `/api/v1/tryons/${encodeURIComponent(id)}`,
        headers: { authorization: req.headers.authorization ?? '' },
        body: Buffer.alloc(0),
      });
      const current = json(read);
      return read.status === 200 && current?.status !== 'pending' ? withJson(res, current) : res;
    },
  },
];
