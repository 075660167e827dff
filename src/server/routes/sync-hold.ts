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
import type { TryOnRecord } from '../store/store.ts';
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
  const unhold = (reply: FastifyReply): void => {
    reply.raw.off('close', releaseOnClose);
    waiterOf.delete(reply.raw);
  };
  const wake: Wake<FastifyReply> = ({ tryOnId, subject: reply }) => {
    unhold(reply);
    try {
      answer(ctx, tryOnId, reply);
    } catch (error) {
      reply.send(error);
    }
  };
  // Lets `held` go unanswered by the waiters; false when it was woken already (the wake answers it).
  const letGo = (reply: FastifyReply, held: Waiter<FastifyReply> | undefined): boolean => {
    if (!held) return true;
    if (waiterOf.get(reply.raw) !== held) return false;
    ctx.waiters.release(held);
    unhold(reply);
    return true;
  };
  return (id, reply) => {
    const final = ctx.cached.tryOn(id);
    if (final) return void send(ctx, final, reply);
    // Held before the store is read, so a try-on that finishes meanwhile still wakes it. A client that
    // left while its try-on was being started is not held.
    let held: Waiter<FastifyReply> | undefined;
    if (!reply.request.raw.socket.destroyed) {
      held = ctx.waiters.hold(id, ctx.settings.syncWaitMs, reply, wake);
      waiterOf.set(reply.raw, held);
      reply.raw.on('close', releaseOnClose);
    }
    ctx.store.findTryOn(id).then(
      (tryOn) => {
        if (tryOn?.status !== 'pending' && letGo(reply, held)) sendOrFail(ctx, tryOn, reply);
      },
      (error: unknown) => {
        if (letGo(reply, held)) reply.send(error);
      },
    );
  };
}

/** The answer as the try-on stands now: 202 while pending, else 200 with the final state. */
function answer(ctx: ServerContext, id: string, reply: FastifyReply): void {
  const final = ctx.cached.tryOn(id);
  if (final) return void send(ctx, final, reply);
  ctx.store.findTryOn(id).then(
    (tryOn) => sendOrFail(ctx, tryOn, reply),
    (error: unknown) => reply.send(error),
  );
}

function sendOrFail(ctx: ServerContext, tryOn: TryOnRecord | undefined, reply: FastifyReply): void {
  try {
    send(ctx, tryOn, reply);
  } catch (error) {
    reply.send(error);
  }
}

function send(ctx: ServerContext, tryOn: TryOnRecord | undefined, reply: FastifyReply): FastifyReply {
  if (!tryOn) throw new ApiError('INTERNAL_ERROR');
  if (tryOn.status === 'pending') return reply.code(202).send(startedView(tryOn));
  return reply.code(200).send(tryOnView(tryOn, ctx.publicUrl()));
}
