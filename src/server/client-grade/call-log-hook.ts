/**
 * The sandbox's side of client grading (`serve --grade-clients`): fastify hooks that turn each request
 * the server receives into a call record (grade/call-record.ts, the same builders the proxy's grader
 * uses) in the call log. A caller is named by its account once its key resolved to one.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallLog } from '../../grade/call-log.ts';
import { isGraded, openRecord, recordAnswer, recordBody, type CallRecord } from '../../grade/call-record.ts';
import { bearerToken } from '../domain/api-keys.ts';

/** A caller's name for a request whose key did not resolve to an account: never the key itself. */
export function anonymousCaller(authorization: string | undefined): string {
  const key = bearerToken(authorization);
  return key === undefined
    ? 'no API key'
    : `unknown key sha256:${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
}

/** The largest answer body read for the rules: the API's own answers are a few hundred bytes. */
const maxAnswerChars = 64 * 1024;

/** Installs the hooks that fill `log` on `app`; call before the routes are registered. */
export function installCallLog(app: FastifyInstance, log: CallLog): void {
  const byRequest = new WeakMap<FastifyRequest, CallRecord>();
  const owned = (request: FastifyRequest): boolean => typeof request.accountId === 'string';
  const settle = (record: CallRecord, request: FastifyRequest): void => {
    if (owned(request)) record.caller = request.accountId as string;
    recordBody(record, request.body);
  };

  app.addHook('onRequest', async (request, reply) => {
    if (!isGraded(request.url)) return;
    const caller = anonymousCaller(request.headers.authorization);
    const facts = { method: request.method, target: request.url, headers: request.headers };
    const record = openRecord(log.nextSeq(), caller, facts, log.clock.now());
    log.begin(record);
    byRequest.set(request, record);
    // A response closed before it finished: the client dropped the connection (its timeout, or a
    // network failure). Fastify's onRequestAbort misses a request whose body had all arrived.
    reply.raw.once('close', () => {
      if (reply.raw.writableFinished || record.endedAt !== undefined) return;
      settle(record, request);
      record.dropped = true;
      record.endedAt = log.clock.now();
      log.end(record, owned(request));
    });
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const record = byRequest.get(request);
    if (!record) return payload;
    let json: unknown;
    if (typeof payload === 'string' && payload.length < maxAnswerChars && payload.startsWith('{')) {
      try {
        json = JSON.parse(payload);
      } catch {
        // Not JSON after all: nothing to record.
      }
    }
    recordAnswer(record, { json, retryAfter: reply.getHeader('retry-after') });
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const record = byRequest.get(request);
    if (!record) return;
    settle(record, request);
    record.status = reply.statusCode;
    if (!record.dropped) record.endedAt = log.clock.now();
    log.end(record, owned(request));
  });
}
