/**
 * Rate limits at the HTTP edge (spec: Limits): 429 RATE_LIMITED with an integer Retry-After, and the
 * IETF RateLimit-Policy / RateLimit headers on every limited response. Runs after authentication and
 * before the body is read, so every authenticated request counts (openapi.yaml x-check-order).
 * A callback hook, like the auth hook (routes/auth.ts: a refusal leaves a microtask later).
 */
import type { onRequestHookHandler } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { windowMs, type Bucket } from '../domain/rate-limiter.ts';
import type { AccountLimits } from '../store/store.ts';
import { refuseLater } from './auth.ts';
import type { ServerContext } from './context.ts';

const limitOf: Record<Bucket, keyof AccountLimits> = {
  starts: 'startsPerMinute',
  polls: 'pollsPerMinute',
  uploads: 'uploadsPerMinute',
};

export function rateLimit(ctx: ServerContext, bucket: Bucket): onRequestHookHandler {
  return (request, reply, done) => {
    const limits = ctx.store.limitsOf(request.accountId) ?? ctx.settings.limits;
    const limit = limits[limitOf[bucket]];
    const decision = ctx.limiter.take(request.accountId, bucket, limit);
    const policy = `"${bucket}";q=${limit};w=${windowMs / 1000}`;
    if (!decision.allowed) {
      return refuseLater(done, new ApiError('RATE_LIMITED', `Too many ${bucket}; retry after ${decision.retryAfterSeconds} seconds.`, {
        'retry-after': String(decision.retryAfterSeconds),
        'ratelimit-policy': policy,
        ratelimit: `"${bucket}";r=0;t=${decision.retryAfterSeconds}`,
      }));
    }
    reply.header('ratelimit-policy', policy);
    reply.header('ratelimit', `"${bucket}";r=${decision.remaining};t=${decision.resetSeconds}`);
    done();
  };
}
