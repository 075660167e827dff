/**
 * POST /tryons, POST /tryons/sync and GET /tryons/{id} (spec: Endpoints; States and transitions).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { startTryOn, type StartResult } from '../domain/tryon-starts.ts';
import { authenticate } from './auth.ts';
import type { ServerContext } from './context.ts';
import { rateLimit } from './rate-limit.ts';
import { readView, startedView, tryOnView } from './representations.ts';

export function tryOnRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const auth = authenticate(ctx);

  app.post('/api/v1/tryons', { onRequest: [auth, rateLimit(ctx, 'starts')] }, async (request, reply) => {
    const { replayed, tryOn } = await start(ctx, request);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(200).send(startedView(tryOn));
  });

  // Callback style (not async): once held, the handler has returned and holds no promise; an error
  // goes to reply.send as fastify would send one thrown by an async handler.
  app.post('/api/v1/tryons/sync', { onRequest: [auth, rateLimit(ctx, 'starts')] }, (request, reply) => {
    start(ctx, request)
      .then(({ tryOn }) => holdAndAnswer(ctx, tryOn.id, reply))
      .catch((error: unknown) => reply.send(error));
  });

  app.get<{ Params: { id: string } }>('/api/v1/tryons/:id', { onRequest: [auth, rateLimit(ctx, 'polls')] }, async (request) => {
    const tryOn = ctx.store.findTryOn(request.params.id);
    // Spec (Authentication 6): another account's try-on is NOT_FOUND, exactly like a missing one.
    if (!tryOn || tryOn.accountId !== request.accountId) throw new ApiError('NOT_FOUND', 'No try-on with that id on this account.');
    return readView(tryOn, ctx.publicUrl());
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
 *
 * While held, the request keeps only its try-on id and its reply (domain/sync-waiters.ts): the
 * handler has returned, so nothing of the start (body, images, closures) stays reachable. A client
 * that disconnects is let go at once, unanswered.
 */
function holdAndAnswer(ctx: ServerContext, id: string, reply: FastifyReply): void {
  if (ctx.store.findTryOn(id)?.status !== 'pending') return void answer(ctx, id, reply);
  const response = reply.raw;
  // A client that left while its try-on was being started is not held either.
  if (reply.request.raw.socket.destroyed) return;
  const onClose = () => {
    if (!response.writableFinished) ctx.waiters.release(waiter);
  };
  const waiter = ctx.waiters.hold(id, ctx.settings.syncWaitMs, () => {
    response.off('close', onClose);
    try {
      answer(ctx, id, reply);
    } catch (error) {
      reply.send(error);
    }
  });
  response.on('close', onClose);
}

/** The answer as the try-on stands now: 202 while pending, else 200 with the final state. */
function answer(ctx: ServerContext, id: string, reply: FastifyReply): FastifyReply {
  const tryOn = ctx.store.findTryOn(id);
  if (!tryOn) throw new ApiError('INTERNAL_ERROR');
  if (tryOn.status === 'pending') return reply.code(202).send(startedView(tryOn));
  return reply.code(200).send(tryOnView(tryOn, ctx.publicUrl()));
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}
