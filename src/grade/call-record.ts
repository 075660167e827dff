/**
 * The call record of client grading: one request a client sent, as the facts the client rules need.
 * The reference server's hook (`serve --grade-clients`) and the proxy's grader (traffic-grader.ts)
 * both build their records with the functions here, so a client is judged the same way by either.
 * The API key is never kept (redact.ts); each text of a record is bounded in length.
 */
import type { operations } from '../contract/api-types.gen.ts';
import { operationOf as documentedOperationOf } from '../contract/operation-of.ts';
import { fingerprint } from '../shared/canonical-json.ts';
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

/** A request as it arrived: its method, its target (path and query, as sent) and its headers, names in any case. */
export interface RequestFacts {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** What an answer shows the rules: its parsed JSON body (when it was JSON) and its Retry-After header. */
export interface AnswerFacts {
  readonly json: unknown;
  readonly retryAfter: unknown;
}

/** The longest path kept as it was sent; a longer one is cut, with its length and a digest (redact.ts, `bounded`). */
const maxPathChars = 256;
const maxIdempotencyKeyChars = 200;

/** The path of a request target without its query. */
export function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query < 0 ? target : target.slice(0, query);
}

/** Test control is the sandbox's own extension, not the API a client is graded on. */
export function isGraded(target: string): boolean {
  return !pathOf(target).startsWith('/_control');
}

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

/** The request headers the records read, by lower-case name (a repeated one joined). */
interface ReadHeaders {
  authorization?: string;
  'idempotency-key'?: string;
  origin?: string;
  'sec-fetch-site'?: string;
  'sec-fetch-dest'?: string;
  'access-control-request-method'?: string;
}

const readNames: ReadonlySet<string> = new Set([
  'authorization',
  'idempotency-key',
  'origin',
  'sec-fetch-site',
  'sec-fetch-dest',
  'access-control-request-method',
]);

/** The headers the records read, in one pass and without a copy of the others; a later spelling wins. */
function readHeaders(headers: RequestFacts['headers']): ReadHeaders {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (readNames.has(lower)) out[lower] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}

/** A request with no browser sign shares this one list: records are kept long, one empty array each is waste. */
const noSigns: readonly string[] = Object.freeze([]);

function browserSignsOf(method: string, h: ReadHeaders, secrets: readonly string[]): readonly string[] {
  const origin = h.origin;
  const site = h['sec-fetch-site'];
  const dest = h['sec-fetch-dest'];
  const preflight = method === 'OPTIONS' ? h['access-control-request-method'] : undefined;
  if (origin === undefined && site === undefined && dest === undefined && preflight === undefined) return noSigns;
  const value = (v: string, max: number): string => redact(v, secrets).slice(0, max);
  const signs: string[] = [];
  if (origin !== undefined) signs.push(`Origin: ${value(origin, 80)}`);
  // Not Sec-Fetch-Mode: Node's own fetch sends `sec-fetch-mode: cors` from a server too.
  if (site !== undefined) signs.push(`sec-fetch-site: ${value(site, 40)}`);
  if (dest !== undefined) signs.push(`sec-fetch-dest: ${value(dest, 40)}`);
  if (preflight !== undefined) signs.push(`CORS preflight (Access-Control-Request-Method: ${value(preflight, 20)})`);
  return signs;
}

/**
 * What a request's method, path and key make of its record: the redacted path, its operation and the
 * try-on it reads. Traffic repeats one request again and again; the latest is kept, so the records of
 * a poll loop share one path string rather than each holding its own copy.
 */
interface Target {
  readonly method: string;
  readonly rawPath: string;
  readonly authorization: string | undefined;
  readonly path: string;
  readonly operation: Operation;
  readonly tryOnId: string | undefined;
}

let lastTarget: Target | undefined;

function targetOf(method: string, rawPath: string, authorization: string | undefined, secrets: readonly string[]) {
  const last = lastTarget;
  if (last?.rawPath === rawPath && last.method === method && last.authorization === authorization) return last;
  const path = bounded(redactPath(rawPath, secrets), maxPathChars);
  const operation = operationOf(method, rawPath);
  const tryOnId = operation === 'getTryOn' ? path.slice(path.lastIndexOf('/') + 1) : undefined;
  lastTarget = { method, rawPath, authorization, path, operation, tryOnId };
  return lastTarget;
}

/**
 * The record of a request that has just arrived, from `caller`, at `startedAt`: everything the request
 * itself shows, redacted; the answer's facts come with `recordAnswer`, the body's with `recordBody`.
 */
export function openRecord(seq: number, caller: string, request: RequestFacts, startedAt: number): CallRecord {
  const h = readHeaders(request.headers);
  const rawPath = pathOf(request.target);
  const secrets = secretsOf(h.authorization);
  const { path, operation, tryOnId } = targetOf(request.method, rawPath, h.authorization, secrets);
  const idempotencyKey = h['idempotency-key'];
  return {
    seq,
    caller,
    method: request.method,
    path,
    operation,
    idempotencyKey:
      idempotencyKey === undefined ? undefined : bounded(redact(idempotencyKey, secrets), maxIdempotencyKeyChars),
    bodyDigest: undefined,
    tryOnId,
    startedAt,
    endedAt: undefined,
    status: undefined,
    code: undefined,
    tryOnStatus: undefined,
    retryAfterSeconds: undefined,
    dropped: false,
    browserSigns: browserSignsOf(request.method, h, secrets),
  };
}

/** The digest of a request's JSON body (already parsed), once: a body that is not an object leaves none. */
export function recordBody(record: CallRecord, body: unknown): void {
  if (record.bodyDigest !== undefined || body === undefined || body === null || typeof body !== 'object') return;
  record.bodyDigest = fingerprint(body);
}

/** Short texts answers repeat (a status, an error code), each kept once however many records hold it. */
const internedTexts = new Map<string, string>();

/** The one kept copy of `text`: each answer parsed holds its own, and records are kept long. */
function interned(text: string): string {
  if (text.length > 64) return text;
  const known = internedTexts.get(text);
  if (known !== undefined) return known;
  if (internedTexts.size >= 256) internedTexts.clear();
  internedTexts.set(text, text);
  return text;
}

/** What an answer shows: its error code, the try-on it names (not an upload's image id), that try-on's status. */
export function recordAnswer(record: CallRecord, answer: AnswerFacts): void {
  const body = answer.json;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const { code, id, status } = body as { code?: unknown; id?: unknown; status?: unknown };
    if (typeof code === 'string') record.code = interned(code);
    if (typeof id === 'string' && record.operation !== 'uploadImage') record.tryOnId ??= id;
    if (typeof status === 'string') record.tryOnStatus = interned(status);
  }
  const retryAfter = answer.retryAfter;
  if (retryAfter !== undefined && /^\d+$/.test(String(retryAfter))) record.retryAfterSeconds = Number(retryAfter);
}
