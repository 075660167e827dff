/**
 * Holding POST /tryons/sync (spec: sync): 200 with the final state if the try-on finishes within the wait,
 * else 202 with pollUrl; a repeat with the same key lands here too, and picks the try-on back up. A held
 * request keeps only its waiter (domain/sync-waiters.ts), and the route's one wake function and one close
 * listener serve every held request. A client that disconnects is let go at once, unanswered.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../api-errors.ts';
import type { Wake, Waiter } from '../domain/sync-waiters.ts';
import type { ServerContext } from './context.ts';
import { startedView, tryOnView } from './representations.ts';

/** Answers `reply` for try-on `id` now if it is final, else holds it until it is or the wait ends. */
export function syncHolder(ctx: ServerContext): (id: string, reply: FastifyReply) => void {
  const waiterOf = new WeakMap<ServerResponse, Waiter<FastifyReply>>();
  // One listener for every held response: `this` is the response that closed.
  function releaseOnClose(this: ServerResponse): void {
    const waiter = waiterOf.get(this);
    if (waiter && !this.writableFinished) ctx.waiters.release(waiter);
  }
  const wake: Wake<FastifyReply> = ({ tryOnId, subject: reply }) => {
    reply.raw.off('close', releaseOnClose);
    waiterOf.delete(reply.raw);
    try {
      answer(ctx, tryOnId, reply);
    } catch (error) {
      reply.send(error);
    }
  };
  return (id, reply) => {
    if (ctx.store.findTryOn(id)?.status !== 'pending') return void answer(ctx, id, reply);
    // A client that left while its try-on was being started is not held either.
    if (reply.request.raw.socket.destroyed) return;
    waiterOf.set(reply.raw, ctx.waiters.hold(id, ctx.settings.syncWaitMs, reply, wake));
    reply.raw.on('close', releaseOnClose);
  };
}

/** The answer as the try-on stands now: 202 while pending, else 200 with the final state. */
function answer(ctx: ServerContext, id: string, reply: FastifyReply): FastifyReply {
  const tryOn = ctx.store.findTryOn(id);
  if (!tryOn) throw new ApiError('INTERNAL_ERROR');
  if (tryOn.status === 'pending') return reply.code(202).send(startedView(tryOn));
  return reply.code(200).send(tryOnView(tryOn, ctx.publicUrl()));
}
