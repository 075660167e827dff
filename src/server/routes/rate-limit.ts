/**
 * Rate limits at the HTTP edge (spec: Limits): 429 RATE_LIMITED with an integer Retry-After, and the
 * IETF RateLimit-Policy / RateLimit headers on every limited response. Runs after authentication and
 * before the body is read, so every authenticated request counts (openapi.yaml x-check-order).
 * A callback hook, like the auth hook (routes/auth.ts: a refusal leaves a microtask later).
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { StaleReads, windowMs, type Bucket, type RateDecision } from '../domain/rate-limiter.ts';
import type { AccountLimits } from '../store/store.ts';
import { accountOf, refuseLater } from './auth.ts';
import type { ServerContext } from './context.ts';
import { type MaybeLater, whenReady } from './maybe-later.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's admission reads the shared clock and epoch itself (freshAdmission): no read before it. */
    readsOwnClock?: boolean;
  }
}

/** Shared windows: the epoch of the cached reads each request of `freshAdmission` is being admitted with. */
const readsEpoch = new WeakMap<FastifyReply, number>();

const limitOf: Record<Bucket, keyof AccountLimits> = {
  starts: 'startsPerMinute',
  polls: 'pollsPerMinute',
  uploads: 'uploadsPerMinute',
};

/**
 * Counts the request of `accountId` in its window: sets RateLimit-Policy and RateLimit on `reply`
 * and returns nothing, or returns the 429 to send. RateLimit-Policy is made once per limit. The
 * account's limits come from the read cache, or from the store when the cache does not hold them.
 */
function limiter(
  ctx: ServerContext,
  bucket: Bucket,
): (accountId: string, reply: FastifyReply) => MaybeLater<ApiError | undefined> {
  let policyLimit = Number.NaN;
  // Only shared windows take an epoch (freshAdmission): this process's windows are asked as they were.
  const shared = ctx.limiter.reads !== undefined;
  let policy = '';
  const take = (
    accountId: string,
    reply: FastifyReply,
    own: AccountLimits | null,
  ): MaybeLater<ApiError | undefined> => {
    const limits = own ?? ctx.settings.limits;
    const limit = limits[limitOf[bucket]];
    // This process's windows answer at once; windows shared by instances answer from the database.
    const decision = shared
      ? ctx.limiter.take(accountId, bucket, limit, readsEpoch.get(reply))
      : ctx.limiter.take(accountId, bucket, limit);
    return decision instanceof Promise ? decision.then((d) => judge(d, limit, reply)) : judge(decision, limit, reply);
  };
  const judge = (decision: RateDecision, limit: number, reply: FastifyReply): ApiError | undefined => {
    if (limit !== policyLimit) {
      policy = `"${bucket}";q=${limit};w=${windowMs / 1000}`;
      policyLimit = limit;
    }
    if (!decision.allowed) {
      return new ApiError('RATE_LIMITED', `Too many ${bucket}; retry after ${decision.retryAfterSeconds} seconds.`, {
        'retry-after': String(decision.retryAfterSeconds),
        'ratelimit-policy': policy,
        ratelimit: `"${bucket}";r=0;t=${decision.retryAfterSeconds}`,
      });
    }
    reply.header('ratelimit-policy', policy);
    reply.header('ratelimit', `"${bucket}";r=${decision.remaining};t=${decision.resetSeconds}`);
    return undefined;
  };
  return (accountId, reply) => {
    const own = ctx.cached.limits(accountId);
    if (own !== undefined) return take(accountId, reply, own);
    return ctx.store.limitsOf(accountId).then((read) => take(accountId, reply, read));
  };
}

/**
 * Authentication (routes/auth.ts) and then the rate limit: sets `request.accountId` and the
 * RateLimit headers and returns nothing, or returns the refusal to send (401, then 429); at once
 * when the read cache answers, else as a promise.
 */
export function admission(
  ctx: ServerContext,
  bucket: Bucket,
): (request: FastifyRequest, reply: FastifyReply) => MaybeLater<ApiError | undefined> {
  const take = limiter(ctx, bucket);
  return (request, reply) =>
    whenReady(accountOf(ctx, request.headers.authorization), (accountId) => {
      if (accountId === undefined) return new ApiError('INVALID_API_KEY');
      request.accountId = accountId;
      return take(accountId, reply);
    });
}

/**
 * `admission` for a route that skips the per-request clock read (route config `readsOwnClock`): on shared
 * windows, the window's own call reads the clock and epoch, and counts the request only if the epoch is still
 * that of the cached reads it was admitted with (one round trip). If it moved, nothing was counted: the
 * request reads the clock and epoch afresh and is admitted again, as every other request is. On this
 * process's windows, `admission` itself.
 */
export function freshAdmission(
  ctx: ServerContext,
  bucket: Bucket,
): (request: FastifyRequest, reply: FastifyReply) => MaybeLater<ApiError | undefined> {
  const admit = admission(ctx, bucket);
  const reads = ctx.limiter.reads;
  if (!reads) return admit;
  const again = (request: FastifyRequest, reply: FastifyReply) => (error: unknown) => {
    if (!(error instanceof StaleReads)) throw error;
    readsEpoch.delete(reply);
    return reads.refresh().then(() => admit(request, reply));
  };
  return (request, reply) => {
    readsEpoch.set(reply, reads.epoch());
    const first = admit(request, reply);
    return first instanceof Promise ? first.catch(again(request, reply)) : first;
  };
}

/**
 * `admission` as one onRequest hook (one hook per request, not one for each check), so it runs
 * before the body is read, with the same order and answers as two hooks would give.
 */
export function authenticateAndLimit(ctx: ServerContext, bucket: Bucket): onRequestHookHandler {
  const admit = admission(ctx, bucket);
  return (request, reply, done) => {
    const refusal = admit(request, reply);
    if (refusal instanceof Promise) {
      refusal.then((later) => (later ? done(later) : done()), done);
      return;
    }
    if (refusal) return refuseLater(done, refusal);
    done();
  };
}
