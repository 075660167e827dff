/**
 * Bearer-key authentication (spec: Authentication 1, 3, 4): a missing, malformed or revoked key is
 * 401 INVALID_API_KEY. Runs in onRequest, before the body is read.
 */
import type { onRequestHookHandler } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { bearerToken, keyMatches, lookupIdOf } from '../domain/api-keys.ts';
import type { ServerContext } from './context.ts';

export function authenticate(ctx: ServerContext): onRequestHookHandler {
  return async (request) => {
    const key = bearerToken(request.headers.authorization);
    const lookupId = key ? lookupIdOf(key) : undefined;
    const record = lookupId ? ctx.store.findKey(lookupId) : undefined;
    // Compare even when the record is revoked, so both paths cost the same.
    const matches = key !== undefined && record !== undefined && keyMatches(key, record.hash);
    if (!record || !matches || record.revokedAt !== null) throw new ApiError('INVALID_API_KEY');
    request.accountId = record.accountId;
  };
}
