/** Mutants of the state family (spec: States and transitions; Resources and their fields, Try-on). */
import type { MutantContext, Mutation, ProxiedRequest, ProxiedResponse } from '../mutating-proxy.ts';
import { apiError, isAsyncCreate, isSyncCreate, json, perProxy, readId, withJson } from '../helpers.ts';

const successReads = perProxy(() => new Map<string, number>());
/** When each try-on was first shown as success, on the server's clock (as far as the proxy can tell). */
const successSince = perProxy(() => new Map<string, number>());
const refundedOnExpiry = perProxy(() => new Set<string>());
const dayMs = 24 * 3600 * 1000;

/** Notes the first time an answer (a read or a sync 200) shows a try-on as success. */
function noteSuccess(res: ProxiedResponse, req: ProxiedRequest, ctx: MutantContext): void {
  const body = json(res);
  if (
    res.status === 200 &&
    body?.status === 'success' &&
    typeof body.id === 'string' &&
    (readId(req) !== undefined || isSyncCreate(req)) &&
    !successSince(ctx).has(body.id)
  ) {
    successSince(ctx).set(body.id, ctx.traffic.now());
  }
}

export const stateMutants: readonly Mutation[] = [
  {
    name: 'success-flips-back-to-pending',
    family: 'state',
    breaks: ['STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED'],
    does: 'the second read of a successful try-on shows it pending again (resultUrl null); later reads show success',
    response: (res, req, ctx) => {
      const body = json(res);
      if (
        res.status !== 200 ||
        body?.status !== 'success' ||
        typeof body.id !== 'string' ||
        (readId(req) === undefined && !isSyncCreate(req))
      )
        return res;
      const seen = (successReads(ctx).get(body.id) ?? 0) + 1;
      successReads(ctx).set(body.id, seen);
      return seen === 2 && readId(req) !== undefined
        ? withJson(res, { id: body.id, status: 'pending', resultUrl: null })
        : res;
    },
  },
  {
    name: 'result-url-while-pending',
    family: 'state',
    breaks: ['RES-RESULT-URL-NULL-UNLESS-SUCCESS'],
    does: 'a pending try-on is read with a resultUrl where its image will be',
    response: (res, req, ctx) => {
      const body = json(res);
      if (readId(req) === undefined || res.status !== 200 || body?.status !== 'pending') return res;
      return withJson(res, { ...body, resultUrl: `${ctx.env.proxyOrigin}/i/${body.id}.png` });
    },
  },
  {
    name: 'message-missing-on-failed',
    family: 'state',
    breaks: ['RES-TRYON-MESSAGE-ON-FAILED'],
    does: 'a failed try-on has no message',
    response: (res, req) => {
      const body = json(res);
      if (res.status !== 200 || body?.status !== 'failed' || (readId(req) === undefined && !isSyncCreate(req)))
        return res;
      const { message: _dropped, ...rest } = body;
      return withJson(res, rest);
    },
  },
  {
    name: 'poll-url-without-version',
    family: 'state',
    breaks: ['RES-POLL-URL-VALUE'],
    does: 'pollUrl is /tryons/<id>, without the /api/v1 prefix',
    response: (res, req) => {
      const body = json(res);
      if (!(isAsyncCreate(req) || isSyncCreate(req)) || typeof body?.pollUrl !== 'string') return res;
      return withJson(res, { ...body, pollUrl: body.pollUrl.replace(/^\/api\/v1/, '') });
    },
  },
  {
    name: 'result-url-in-create-answer',
    family: 'state',
    breaks: ['RES-RESULT-URL-ABSENT-FROM-CREATE'],
    does: 'the create answer (and the sync 202) carries resultUrl: null',
    response: (res, req) => {
      const body = json(res);
      if (!(isAsyncCreate(req) || isSyncCreate(req)) || typeof body?.pollUrl !== 'string') return res;
      return withJson(res, { ...body, resultUrl: null });
    },
  },
  {
    name: 'poll-url-in-read',
    family: 'state',
    breaks: ['RES-POLL-URL-ONLY-CREATE-AND-SYNC-202'],
    does: 'GET /tryons/{id} also carries pollUrl',
    response: (res, req) => {
      const body = json(res);
      if (readId(req) === undefined || res.status !== 200 || typeof body?.id !== 'string') return res;
      return withJson(res, { ...body, pollUrl: `/api/v1/tryons/${body.id}` });
    },
  },
  {
    name: 'failed-read-as-500',
    family: 'state',
    breaks: ['STATE-FAILED-READ-IS-200'],
    does: 'reading a failed try-on answers 500 INTERNAL_ERROR with its message, not 200 failed',
    response: (res, req) => {
      const body = json(res);
      if (readId(req) === undefined || res.status !== 200 || body?.status !== 'failed') return res;
      return apiError(500, 'INTERNAL_ERROR', String(body.message ?? 'The try-on failed.'));
    },
  },
  {
    name: 'status-succeeded',
    family: 'state',
    breaks: ['RES-TRYON-STATUS-VALUES'],
    does: 'a successful try-on reads status "succeeded" instead of "success"',
    response: (res, req) => {
      const body = json(res);
      if (readId(req) === undefined || res.status !== 200 || body?.status !== 'success') return res;
      return withJson(res, { ...body, status: 'succeeded' });
    },
  },
  {
    name: 'old-success-fails-on-expiry',
    family: 'state',
    breaks: ['STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED'],
    does: 'a success read more than 24 h (test clock) after it was first shown, when its result has expired, reads failed with a message and a null resultUrl, without a refund (issue 18)',
    response: (res, req, ctx) => {
      noteSuccess(res, req, ctx);
      const body = json(res);
      const id = readId(req);
      const since = id === undefined ? undefined : successSince(ctx).get(id);
      if (res.status !== 200 || body?.status !== 'success' || since === undefined || ctx.traffic.now() - since <= dayMs)
        return res;
      return withJson(res, { id: body.id, status: 'failed', resultUrl: null, message: 'The result has expired.' });
    },
  },
  {
    name: 'expiry-refunds-success',
    family: 'state',
    breaks: ['SVC-ONE-CREDIT-PER-FINISHED-TRYON'],
    does: 'when the clock passes the 24 h of a success, its credit is given back (the balance moves with a clock advance; issue 18)',
    response: async (res, req, ctx) => {
      noteSuccess(res, req, ctx);
      const now = Date.parse(String(json(res)?.now ?? ''));
      if (
        req.method !== 'POST' ||
        !req.path.startsWith('/_control/clock/advance') ||
        res.status !== 200 ||
        !Number.isFinite(now)
      )
        return res;
      for (const [id, since] of successSince(ctx)) {
        const account = ctx.traffic.tryOns.get(id)?.accountId;
        if (now - since <= dayMs || refundedOnExpiry(ctx).has(id) || account === undefined) continue;
        refundedOnExpiry(ctx).add(id);
        await ctx.adjustCredits(account, 1);
      }
      return res;
    },
  },
];
