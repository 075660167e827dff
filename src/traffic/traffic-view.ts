/**
 * What the passive rules read of one exchange of traffic, worked out once: the operation it exercised
 * under the target's base path, the try-on it names, its Idempotency-Key and the try-on its answer
 * describes. A recorded URL may be a bare path (a proxy's request line): it is read against a
 * placeholder origin, so nothing here ever fails on a target's URL.
 */
import type { Answered, Exchange } from '../client/exchange.ts';
import { apiPrefix, operationOf, pathOf } from '../contract/operation-of.ts';
import type { AccountDigest, AnsweredTraffic, TrafficExchange } from './traffic-exchange.ts';

/** The operations the behavioural rules follow. */
export type Followed = 'createTryOn' | 'createTryOnSync' | 'getTryOn' | 'uploadImage' | 'getAccount' | 'resultImage';

/** A try-on as an answer describes it: only the fields the rules read. */
export interface TryOnSeen {
  readonly id: string;
  readonly status: unknown;
  readonly resultUrl?: unknown;
}

export interface TrafficView {
  readonly te: AnsweredTraffic;
  /** The exchange with an absolute URL, for the per-exchange checks. */
  readonly exchange: Answered;
  readonly op: Followed | undefined;
  readonly path: string;
  readonly status: number;
  /** The try-on id of a GET /tryons/{id} path, decoded. */
  readonly pathId?: string;
  readonly idempotencyKey?: string;
  /** The try-on of a JSON answer with a string id. */
  readonly tryOn?: TryOnSeen;
  /** The answer was seen whole: the client stayed and the body was captured to its end. */
  readonly whole: boolean;
  /** The digest of the request's own key; `te.account` names its account (key-book.ts), which may differ. */
  readonly key: AccountDigest;
}

/** The origin a bare path is read against; it never reaches a report. */
const placeholderOrigin = 'http://traffic.invalid';

/** The absolute URL read last and its normal form: one exchange's URL is read by each rule in turn. */
let lastAbsolute: { readonly url: string; readonly href: string } | undefined;

/** The exchange's URL made absolute: as recorded, or a path against the Host header. */
export function absoluteUrl(ex: Exchange): string {
  const url = ex.request.url;
  if (url === lastAbsolute?.url) return lastAbsolute.href;
  try {
    const href = new URL(url).href;
    lastAbsolute = { url, href };
    return href;
  } catch {
    const host = ex.request.headers.host;
    try {
      return new URL(ex.request.url, host ? `http://${host}` : placeholderOrigin).href;
    } catch {
      return new URL('/', placeholderOrigin).href;
    }
  }
}

const operationIds: Readonly<Record<string, Followed>> = {
  createTryOn: 'createTryOn',
  createTryOnSync: 'createTryOnSync',
  getTryOn: 'getTryOn',
  uploadImage: 'uploadImage',
  getAccount: 'getAccount',
  getResultImage: 'resultImage',
};

/** What the request alone shows: the operation it asked for, its path and its Idempotency-Key. */
export interface RequestView {
  readonly url: string;
  readonly op: Followed | undefined;
  readonly path: string;
  readonly idempotencyKey?: string;
}

/** Reads what an exchange's request shows, answered or not. */
export function requestViewOf(ex: Exchange, basePath: string = apiPrefix): RequestView {
  const url = absoluteUrl(ex);
  const path = pathOf(url);
  const method = ex.request.method.toUpperCase();
  const found = operationOf(method, url, basePath)?.operationId;
  // "served from {host} under a path beginning `/i/`": a GET there fetches a result image.
  const op: Followed | undefined =
    found !== undefined ? operationIds[found] : method === 'GET' && path.startsWith('/i/') ? 'resultImage' : undefined;
  const key = ex.request.headers['idempotency-key'];
  return { url, op, path, ...(key !== undefined && { idempotencyKey: key }) };
}

/** Reads one exchange once for every rule; `key` is the digest of its own key when `te.account` names another. */
export function viewOf(
  te: AnsweredTraffic,
  basePath: string = apiPrefix,
  keyDigest: AccountDigest = te.account,
): TrafficView {
  const { url, op, path, idempotencyKey: key } = requestViewOf(te.exchange, basePath);
  const exchange: Answered =
    url === te.exchange.request.url ? te.exchange : { ...te.exchange, request: { ...te.exchange.request, url } };
  const whole = te.dropped !== true && te.partial?.response !== true && !exchange.response.truncated;
  return {
    te,
    exchange,
    op,
    path,
    status: exchange.response.status,
    ...(op === 'getTryOn' && { pathId: lastSegment(path) }),
    ...(key !== undefined && { idempotencyKey: key }),
    ...tryOnOf(exchange.response.json),
    whole,
    key: keyDigest,
  };
}

/** The path read last and its last segment, decoded: a poll loop reads one path again and again. */
let lastPathId = { path: '', id: '' };

function lastSegment(path: string): string {
  if (path === lastPathId.path) return lastPathId.id;
  const raw = path.slice(path.lastIndexOf('/') + 1);
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    id = raw;
  }
  lastPathId = { path, id };
  return id;
}

function tryOnOf(json: unknown): { tryOn?: TryOnSeen } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return {};
  const body = json as Record<string, unknown>;
  if (typeof body.id !== 'string' || body.id === '') return {};
  return {
    tryOn: { id: body.id, status: body.status, ...('resultUrl' in body && { resultUrl: body.resultUrl }) },
  };
}

/** A start answered with a try-on: 200 from POST /tryons, 200 or 202 from POST /tryons/sync. */
export function startedTryOn(v: TrafficView): TryOnSeen | undefined {
  if (v.op === 'createTryOn' && v.status === 200) return v.tryOn;
  if (v.op === 'createTryOnSync' && (v.status === 200 || v.status === 202)) return v.tryOn;
  return undefined;
}

/** A start refused before any try-on was made: a 4xx answer (429 included). */
export function refusedStart(v: TrafficView): boolean {
  return (v.op === 'createTryOn' || v.op === 'createTryOnSync') && v.status >= 400 && v.status < 500;
}

const noBytes = Buffer.alloc(0);

/** An exchange kept as evidence for later: its request (a body of up to 1 KB) and the start of its answer's text. */
export function slim(te: TrafficExchange): TrafficExchange {
  const { request, response } = te.exchange;
  const body =
    request.body !== undefined && request.body.length > 1024 ? `${request.body.slice(0, 1024)}…` : request.body;
  return {
    ...te,
    exchange: {
      ...te.exchange,
      request: { ...request, ...(body !== undefined && { body }) },
      ...(response !== undefined && {
        response: { ...response, text: response.text.slice(0, 300), json: undefined, bytes: noBytes },
      }),
    },
  };
}
