/** Mutants of the state family (spec: States and transitions; Resources and their fields, Try-on). */
import type { Mutation } from '../mutating-proxy.ts';
import { apiError, isAsyncCreate, isSyncCreate, json, perProxy, readId, withJson } from '../helpers.ts';

const successReads = perProxy(() => new Map<string, number>());

export const stateMutants: readonly Mutation[] = [
  {
    name: 'success-flips-back-to-pending',
    family: 'state',
    breaks: ['STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED'],
    does: 'the second read of a successful try-on shows it pending again (resultUrl null); later reads show success',
    response: (res, req, ctx) => {
      const body = json(res);
      if (res.status !== 200 || body?.status !== 'success' || typeof body.id !== 'string' || (readId(req) === undefined && !isSyncCreate(req))) return res;
      const seen = (successReads(ctx).get(body.id) ?? 0) + 1;
      successReads(ctx).set(body.id, seen);
      return seen === 2 && readId(req) !== undefined ? withJson(res, { id: body.id, status: 'pending', resultUrl: null }) : res;
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
      if (res.status !== 200 || body?.status !== 'failed' || (readId(req) === undefined && !isSyncCreate(req))) return res;
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
];
