/** Mutants of the sync family (spec: POST /tryons/sync; States and transitions rule 5). */
import type { Mutation, ProxiedResponse } from '../mutating-proxy.ts';
import { isSyncCreate, json, keyOf, perProxy, readId, withJson } from '../helpers.ts';

const cancelled = perProxy(() => new Set<string>());
const cancelledView = (id: string) => ({
  id,
  status: 'failed',
  resultUrl: null,
  message: 'The try-on was cancelled because the connection dropped.',
});

export const syncMutants: readonly Mutation[] = [
  {
    name: 'sync-202-without-poll-url',
    family: 'sync',
    breaks: ['SYNC-202-STILL-PENDING'],
    does: 'a sync 202 has no pollUrl',
    response: (res, req) => {
      const body = json(res);
      if (!isSyncCreate(req) || res.status !== 202 || body === undefined) return res;
      const { pollUrl: _dropped, ...rest } = body;
      return withJson(res, rest);
    },
  },
  {
    name: 'sync-holds-forever',
    family: 'sync',
    breaks: ['SYNC-WAIT-ABOUT-55-SECONDS'],
    does: 'when generation outlasts the wait, the sync request is held open until the client gives up, never answered 202',
    response: (res, req) => {
      if (!isSyncCreate(req) || res.status !== 202) return res;
      const signal = req.signal;
      return new Promise<ProxiedResponse>((resolve) => {
        if (signal === undefined || signal.aborted) return resolve(res);
        signal.addEventListener('abort', () => resolve(res), { once: true });
      });
    },
  },
  {
    name: 'sync-answers-without-waiting',
    family: 'sync',
    breaks: ['SYNC-WAIT-ABOUT-55-SECONDS'],
    does: 'POST /tryons/sync does not wait: it answers at once, 200 if the try-on is already final, else 202',
    request: async (req, ctx) => {
      if (!isSyncCreate(req)) return req;
      const started = await ctx.upstream({ ...req, path: req.path.replace(/\/sync(?=\/?(\?|$))/, '') });
      const body = json(started);
      if (started.status !== 200 || typeof body?.id !== 'string') return started;
      const { ['idempotent-replayed']: _replayed, ...headers } = started.headers;
      const read = await ctx.upstream({
        method: 'GET',
        path: `/api/v1/tryons/${encodeURIComponent(body.id)}`,
        headers: { authorization: req.headers.authorization ?? '' },
        body: Buffer.alloc(0),
      });
      const now = json(read);
      if (read.status === 200 && now?.status !== 'pending') return withJson({ ...read, headers }, now);
      return { ...started, status: 202, headers };
    },
  },
  {
    name: 'sync-drop-cancels-tryon',
    family: 'sync',
    breaks: ['STATE-SYNC-KEEPS-RUNNING-AFTER-DISCONNECT'],
    does: 'a try-on whose sync request the client dropped is cancelled: it then reads failed, refunded',
    response: async (res, req, ctx) => {
      const body = json(res);
      const id = typeof body?.id === 'string' ? (body.id as string) : undefined;
      if (
        isSyncCreate(req) &&
        id !== undefined &&
        req.signal?.aborted &&
        body.status === 'pending' &&
        !cancelled(ctx).has(id)
      ) {
        cancelled(ctx).add(id);
        const account = ctx.traffic.accountOf(keyOf(req));
        if (account !== undefined) await ctx.adjustCredits(account, +1);
      }
      const shown = readId(req) ?? (isSyncCreate(req) ? id : undefined);
      if (shown === undefined || !cancelled(ctx).has(shown) || (res.status !== 200 && res.status !== 202)) return res;
      return withJson({ ...res, status: 200 }, cancelledView(shown));
    },
  },
];
