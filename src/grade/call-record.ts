/**
 * The call log of client grading (`serve --grade-clients`): every request the sandbox receives, per
 * caller, as the facts the client rules need. The API key is never kept (redact.ts); what is kept is
 * bounded per account (call-buckets.ts), and each text of a record in length.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { operations } from '../../contract/api-types.gen.ts';
import { operationOf as documentedOperationOf } from '../../contract/operation-of.ts';
import type { Clock } from '../domain/clock.ts';
import { fingerprint } from '../domain/idempotency.ts';
import { bearerToken } from '../domain/api-keys.ts';
import { CallBuckets, defaultRecordLimits, type NotKept, type RecordLimits } from './call-buckets.ts';
import { bounded, redact, redactPath, secretsOf } from './redact.ts';

/** The documented operation a request exercised (openapi.yaml's operationId), or `other`. */
export type Operation = keyof operations | 'other';

export interface CallRecord {
  readonly seq: number;
  caller: string;
  readonly method: string;
  /** The path without its query. */
  readonly path: string;
  readonly operation: Operation;
  readonly idempotencyKey: string | undefined;
  /** sha256 of the canonical JSON body, when the body was JSON. */
  bodyDigest: string | undefined;
  /** The try-on the request is about: from the path of a read, or the answer of a start. */
  tryOnId: string | undefined;
  readonly startedAt: number;
  endedAt: number | undefined;
  status: number | undefined;
  code: string | undefined;
  /** The try-on status in a 200/202 answer. */
  tryOnStatus: string | undefined;
  retryAfterSeconds: number | undefined;
  /** The client closed the connection before the answer was sent. */
  dropped: boolean;
  /** Headers that only a browser sends (Origin, Sec-Fetch-Site, Sec-Fetch-Dest) or a CORS preflight. */
  readonly browserSigns: readonly string[];
}

/** The longest path kept as it was sent; a longer one is cut, with its length and a digest (redact.ts, `bounded`). */
const maxPathChars = 256;
const maxIdempotencyKeyChars = 200;

/** The operation of a request by openapi.yaml's routes (operation-of.ts); `rawPath` is its path without query. */
function operationOf(method: string, rawPath: string): Operation {
  if (!rawPath.startsWith('/')) return 'other';
  try {
    const found = documentedOperationOf(method, `http://sandbox${rawPath}`);
    return (found?.operationId as keyof operations | undefined) ?? 'other';
  } catch {
    return 'other';
  }
}

/** A caller's name for a request whose key did not resolve to an account: never the key itself. */
export function anonymousCaller(authorization: string | undefined): string {
  const key = bearerToken(authorization);
  return key === undefined
    ? 'no API key'
    : `unknown key sha256:${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
}

function browserSignsOf(request: FastifyRequest, secrets: readonly string[]): string[] {
  const h = request.headers;
  const value = (v: unknown, max: number): string => redact(String(v), secrets).slice(0, max);
  const signs: string[] = [];
  if (h.origin !== undefined) signs.push(`Origin: ${value(h.origin, 80)}`);
  // Not Sec-Fetch-Mode: Node's own fetch sends `sec-fetch-mode: cors` from a server too.
  for (const name of ['sec-fetch-site', 'sec-fetch-dest']) {
    if (h[name] !== undefined) signs.push(`${name}: ${value(h[name], 40)}`);
  }
  if (request.method === 'OPTIONS' && h['access-control-request-method'] !== undefined) {
    signs.push(`CORS preflight (Access-Control-Request-Method: ${value(h['access-control-request-method'], 20)})`);
  }
  return signs;
}

/**
 * Records every request of one server instance. A request is kept once it has ended, under its
 * account (or with the callers without one), within `limits`; the oldest go first.
 */
export class CallLog {
  readonly #buckets: CallBuckets<CallRecord>;
  /** Requests still in flight: their account is known, and they are kept, once they end. */
  readonly #inFlight = new Set<CallRecord>();
  readonly #byRequest = new WeakMap<FastifyRequest, CallRecord>();
  #seq = 0;

  constructor(
    readonly clock: Clock,
    limits: RecordLimits = defaultRecordLimits,
  ) {
    this.#buckets = new CallBuckets(limits);
  }

  /** The records of one caller (an account id, `no API key`, `unknown key …`) or all, in the order they started. */
  records(onlyCaller?: string): CallRecord[] {
    const inFlight = [...this.#inFlight].filter((r) => onlyCaller === undefined || r.caller === onlyCaller);
    const kept = this.#buckets.records(onlyCaller);
    return inFlight.length === 0 ? kept : [...kept, ...inFlight].sort((a, b) => a.seq - b.seq);
  }

  /** What was recorded and let go since, for the grade to say so. */
  notKept(): NotKept {
    return this.#buckets.notKept();
  }

  /** Installs the hooks on `app`; call before the routes are registered. */
  install(app: FastifyInstance): void {
    app.addHook('onRequest', async (request, reply) => {
      const rawPath = request.url.split('?')[0] ?? request.url;
      // Test control is the sandbox's own extension, not the API a client is graded on.
      if (rawPath.startsWith('/_control')) return;
      const secrets = secretsOf(request.headers.authorization);
      const path = bounded(redactPath(rawPath, secrets), maxPathChars);
      const idempotencyKey = request.headers['idempotency-key'];
      const operation = operationOf(request.method, rawPath);
      const record: CallRecord = {
        seq: ++this.#seq,
        caller: anonymousCaller(request.headers.authorization),
        method: request.method,
        path,
        operation,
        idempotencyKey:
          typeof idempotencyKey === 'string'
            ? bounded(redact(idempotencyKey, secrets), maxIdempotencyKeyChars)
            : undefined,
        bodyDigest: undefined,
        tryOnId: operation === 'getTryOn' ? path.slice(path.lastIndexOf('/') + 1) : undefined,
        startedAt: this.clock.now(),
        endedAt: undefined,
        status: undefined,
        code: undefined,
        tryOnStatus: undefined,
        retryAfterSeconds: undefined,
        dropped: false,
        browserSigns: browserSignsOf(request, secrets),
      };
      this.#inFlight.add(record);
      this.#byRequest.set(request, record);
      // A response closed before it finished: the client dropped the connection (its timeout, or a
      // network failure). Fastify's onRequestAbort misses a request whose body had all arrived.
      reply.raw.once('close', () => {
        if (reply.raw.writableFinished || record.endedAt !== undefined) return;
        this.#settle(record, request);
        record.dropped = true;
        record.endedAt = this.clock.now();
        this.#keep(record, request);
      });
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const record = this.#byRequest.get(request);
      if (!record) return payload;
      if (typeof payload === 'string' && payload.length < 64 * 1024 && payload.startsWith('{')) {
        try {
          const body = JSON.parse(payload) as { code?: unknown; id?: unknown; status?: unknown };
          if (typeof body.code === 'string') record.code = body.code;
          if (typeof body.id === 'string' && record.operation !== 'uploadImage') record.tryOnId ??= body.id;
          if (typeof body.status === 'string') record.tryOnStatus = body.status;
        } catch {
          // Not JSON after all: nothing to record.
        }
      }
      const retryAfter = reply.getHeader('retry-after');
      if (retryAfter !== undefined && /^\d+$/.test(String(retryAfter))) record.retryAfterSeconds = Number(retryAfter);
      return payload;
    });
    app.addHook('onResponse', async (request, reply) => {
      const record = this.#byRequest.get(request);
      if (!record) return;
      this.#settle(record, request);
      record.status = reply.statusCode;
      if (!record.dropped) record.endedAt = this.clock.now();
      this.#keep(record, request);
    });
  }

  /** An ended request joins its caller's records (once). */
  #keep(record: CallRecord, request: FastifyRequest): void {
    if (this.#inFlight.delete(record)) this.#buckets.add(record, typeof request.accountId === 'string');
  }

  #settle(record: CallRecord, request: FastifyRequest): void {
    if (typeof request.accountId === 'string') record.caller = request.accountId;
    if (
      record.bodyDigest === undefined &&
      request.body !== undefined &&
      request.body !== null &&
      typeof request.body === 'object'
    ) {
      record.bodyDigest = fingerprint(request.body);
    }
  }
}
