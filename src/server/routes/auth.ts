/**
 * Bearer-key authentication (spec: Authentication 1, 3, 4): a missing, malformed or revoked key is 401
 * INVALID_API_KEY. Runs in onRequest, before the body is read, as a callback hook: no promise per request
 * whose key the read cache holds.
 * A refusal still reaches the error handler a microtask later, as from an async hook, so the answer's
 * framing (routes/transport.ts), which reads how much of the request has arrived, stays the same.
 */
import type { onRequestHookHandler } from 'fastify';
import { ApiError } from '../api-errors.ts';
import { bearerPart, lookupIdOf } from '../domain/api-keys.ts';
import { keyOfRecord } from '../domain/verified-keys.ts';
import type { KeyRecord } from '../store/store.ts';
import type { ServerContext } from './context.ts';
import type { MaybeLater } from './maybe-later.ts';

/** Hands a refusal to fastify one microtask later, the turn an async hook's rejection would take. */
export function refuseLater(done: (error?: Error) => void, error: Error): void {
  queueMicrotask(() => done(error));
}

/**
 * The account of a request's `Authorization` header, or undefined when its key is missing, malformed,
 * unknown or revoked: at once when the read cache holds the key's record, else once the store answered.
 */
export function accountOf(ctx: ServerContext, authorization: string | undefined): MaybeLater<string | undefined> {
  // A header that bearerToken would refuse (white space in the key) leaves no well-formed key either.
  const key = bearerPart(authorization);
  const lookupId = key ? lookupIdOf(key) : undefined;
  if (key === undefined || lookupId === undefined) return undefined;
  const record = ctx.cached.key(lookupId);
  if (record) return accountOfRecord(key, record);
  return ctx.store.findKey(lookupId).then((found) => accountOfRecord(key, found));
}

function accountOfRecord(key: string, record: KeyRecord | undefined): string | undefined {
  // Compare even when the record is revoked, so both paths cost the same.
  const matches = record !== undefined && keyOfRecord(key, record);
  return record && matches && record.revokedAt === null ? record.accountId : undefined;
}

export function authenticate(ctx: ServerContext): onRequestHookHandler {
  return (request, _reply, done) => {
    const admit = (accountId: string | undefined): void => {
      if (accountId === undefined) return refuseLater(done, new ApiError('INVALID_API_KEY'));
      request.accountId = accountId;
      done();
    };
    const accountId = accountOf(ctx, request.headers.authorization);
    if (accountId instanceof Promise) accountId.then(admit, done);
    else admit(accountId);
  };
}
