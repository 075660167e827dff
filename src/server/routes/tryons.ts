/**
 * POST /tryons, POST /tryons/sync and GET /tryons/{id} (spec: Endpoints; States and transitions).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { startTryOn, type StartResult } from '../domain/tryon-starts.ts';
import type { TryOnRecord } from '../store/store.ts';
import type { ServerContext } from './context.ts';
import { authenticateAndLimit, freshAdmission } from './rate-limit.ts';
import { jsonType, readBody, startedView } from './representations.ts';
import { syncHolder } from './sync-hold.ts';
import { declaresBody } from './transport.ts';

export function tryOnRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const starts = authenticateAndLimit(ctx, 'starts');

  app.post('/api/v1/tryons', { onRequest: starts }, async (request, reply) => {
    const { replayed, tryOn } = await start(ctx, request);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(200).send(startedView(tryOn));
  });

  // Callback style (not async): once held, the handler has returned and holds no promise; an error
  // goes to reply.send as fastify would send one thrown by an async handler.
  const hold = syncHolder(ctx);
  app.post('/api/v1/tryons/sync', { onRequest: starts }, (request, reply) => {
    start(ctx, request)
      .then(({ tryOn }) => hold(tryOn.id, reply))
      .catch((error: unknown) => reply.send(error));
  });

  // Callback style: no promise and no hook per read the read cache answers. GET has no body to wait for, so the
  // route admits the request itself (authentication, then the rate limit) instead of an onRequest hook. A refusal,
  // and the answer to a request that declares a body, leave a microtask later, since the framing (transport.ts)
  // reads whether the request has all arrived; a bodiless read's answer (representations.ts) goes at once.
  // On a shared database, the admission reads the shared clock with the rate-limit window (readsOwnClock).
  const admitPoll = freshAdmission(ctx, 'polls');
  const answerPoll = pollAnswer(ctx);
  const ownClock = { config: { readsOwnClock: true } };
  app.get<{ Params: { id: string } }>('/api/v1/tryons/:id', ownClock, (request, reply) => {
    try {
      const refusal = admitPoll(request, reply);
      if (!(refusal instanceof Promise)) return answerPoll(refusal, request, reply);
      refusal.then((later) => answerPoll(later, request, reply)).catch((error: unknown) => reply.send(error));
      return undefined;
    } catch (error) {
      return Promise.reject(error);
    }
  });
}

type PollRequest = FastifyRequest<{ Params: { id: string } }>;

/** Answers an admitted poll from the read cache at once, or from the store once it has read the try-on. */
function pollAnswer(
  ctx: ServerContext,
): (refusal: ApiError | undefined, request: PollRequest, reply: FastifyReply) => Promise<never> | undefined {
  const send = (request: PollRequest, reply: FastifyReply, tryOn: TryOnRecord | undefined): undefined => {
    // Spec (Authentication 6): another account's try-on is NOT_FOUND, exactly like a missing one.
    if (!tryOn || tryOn.accountId !== request.accountId)
      throw new ApiError('NOT_FOUND', 'No try-on with that id on this account.');
    const body = readBody(tryOn, ctx.publicUrl());
    if (!declaresBody(request.headers)) {
      reply.header('content-type', jsonType).send(body);
      return undefined;
    }
    queueMicrotask(() => {
      try {
        reply.header('content-type', jsonType).send(body);
      } catch (error) {
        reply.send(error);
      }
    });
    return undefined;
  };
  return (refusal, request, reply) => {
    if (refusal) throw refusal;
    const cached = ctx.cached.tryOn(request.params.id);
    if (cached) return send(request, reply, cached);
    ctx.store
      .findTryOn(request.params.id)
      .then((tryOn) => send(request, reply, tryOn))
      .catch((error: unknown) => reply.send(error));
    return undefined;
  };
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
  return startTryOn(
    ctx.starts,
    request.accountId,
    typeof key === 'string' ? key : undefined,
    body as Record<string, unknown>,
  );
}

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? '');
}
