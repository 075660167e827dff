/**
 * POST /tryons, POST /tryons/sync and GET /tryons/{id} (spec: Endpoints; States and transitions).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { startTryOn, type StartResult } from '../domain/tryon-starts.ts';
import { authenticate } from './auth.ts';
import type { ServerContext } from './context.ts';
import { rateLimit } from './rate-limit.ts';
import { startedView, tryOnView } from './representations.ts';

export function tryOnRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const auth = authenticate(ctx);

  app.post('/api/v1/tryons', { onRequest: [auth, rateLimit(ctx, 'starts')] }, async (request, reply) => {
    const { replayed, tryOn } = await start(ctx, request);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(200).send(startedView(tryOn));
  });

  app.post('/api/v1/tryons/sync', { onRequest: [auth, rateLimit(ctx, 'starts')] }, async (request, reply) => {
    const { tryOn } = await start(ctx, request);
    return waitAndAnswer(ctx, tryOn.id, reply);
  });

  app.get<{ Params: { id: string } }>('/api/v1/tryons/:id', { onRequest: [auth, rateLimit(ctx, 'polls')] }, async (request) => {
    const tryOn = ctx.store.findTryOn(request.params.id);
    // Spec (Authentication 6): another account's try-on is NOT_FOUND, exactly like a missing one.
    if (!tryOn || tryOn.accountId !== request.accountId) throw new ApiError('NOT_FOUND', 'No try-on with that id on this account.');
    return tryOnView(tryOn, ctx.publicUrl());
  });
}

async function start(ctx: ServerContext, request: FastifyRequest): Promise<StartResult> {
  if (!isJson(request.headers['content-type'])) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json.');
  }
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('INVALID_REQUEST', 'The request body must be a JSON object.');
  }
  const key = request.headers['idempotency-key'];
  return startTryOn(ctx.starts, request.accountId, typeof key === 'string' ? key : undefined, body as Record<string, unknown>);
}

/**
 * Spec (sync): 200 with the final state if the try-on finishes within the wait, else 202 with
 * pollUrl. A repeat with the same key lands here too, and so picks the try-on back up.
 */
async function waitAndAnswer(ctx: ServerContext, id: string, reply: FastifyReply) {
  const current = ctx.store.findTryOn(id);
  if (current?.status === 'pending') {
    const gone = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) gone.abort();
    };
    reply.raw.once('close', onClose);
    await ctx.waiters.wait(id, ctx.settings.syncWaitMs, gone.signal);
    reply.raw.off('close', onClose);
    if (gone.signal.aborted) return reply;
  }
  const tryOn = ctx.store.findTryOn(id);
  if (!tryOn) throw new ApiError('INTERNAL_ERROR');
  if (tryOn.status === 'pending') return reply.code(202).send(startedView(tryOn));
  return reply.code(200).send(tryOnView(tryOn, ctx.publicUrl()));
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}
