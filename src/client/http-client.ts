/**
 * The suite's HTTP client: undici, bounded in time and size so that a hostile target (a body that
 * never ends, a drip, 50 MB of garbage) ends in a finding instead of a hang. It only records; pacing,
 * retries and budgets wrap it (`pacer.ts`, `retry.ts`).
 */
import { Agent, FormData, request, type Dispatcher } from 'undici';
import type { Exchange, RecordedRequest, RecordedResponse } from './exchange.ts';
import { heldMultipart, type Hold } from './held-multipart.ts';
import { readJsonBody } from '../shared/json-bounds.ts';
import { refusalOf, targetOrigins } from './origin-guard.ts';
import { runStopSignal, stoppedBecause } from './run-stop.ts';

export interface SendOptions {
  readonly method: string;
  /** A path under the API base (`/tryons`), or an absolute URL. */
  readonly path: string;
  readonly key?: string | undefined;
  readonly json?: unknown;
  readonly rawBody?: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
  readonly multipart?: {
    readonly field: string;
    readonly filename: string;
    readonly contentType: string;
    readonly bytes: Buffer;
    /** A slow sender: the part's head and first bytes go at once, the rest once the hold ends. */
    readonly hold?: Hold;
  };
  readonly operationId?: string;
  /** The whole exchange; default the client's. */
  readonly timeoutMs?: number;
  /**
   * Statuses the caller is probing for, returned as they come: a send wrapped in `withRetry`
   * retries every other 429, 500, 502 and 503 (Errors rule 2). A plain send ignores it.
   */
  readonly keep?: readonly number[];
}

export interface ClientOptions {
  /** The API base URL, ending in `/api/v1`. */
  readonly baseUrl: string;
  readonly timeoutMs?: number;
  readonly maxBodyBytes?: number;
  readonly dispatcher?: Dispatcher;
  readonly onExchange?: (exchange: Exchange) => void;
  /**
   * After this many transport failures in a row (timeouts, resets, refused connections) the target
   * is taken to be down or hostile, and every later request fails at once instead of waiting out
   * its timeout: a run against a target that never answers ends in bounded time.
   */
  readonly breakAfter?: number;
  /**
   * The run's stop (default: this process's, `run-stop.ts`). Once aborted, every request is refused
   * at once (an exchange with an `interrupted:` error, never sent) and those in flight are aborted.
   */
  readonly stop?: AbortSignal;
  /**
   * URLs of origins besides the base URL's that the client may send to: ones the user configured
   * (test control), never one a target named. A request to any other origin is refused unsent.
   */
  readonly alsoTo?: ReadonlyArray<string | undefined>;
}

export type Send = (options: SendOptions) => Promise<Exchange>;

const defaultTimeoutMs = 30_000;
const defaultBreakAfter = 3;
const defaultMaxBody = 8 * 1024 * 1024;
let seq = 0;

/** Makes a `send` function bound to one target. */
export function createSend(options: ClientOptions): Send {
  const base = options.baseUrl.replace(/\/$/, '');
  const dispatcher = options.dispatcher ?? new Agent({ connections: 256, headersTimeout: 0, bodyTimeout: 0 });
  const maxBody = options.maxBodyBytes ?? defaultMaxBody;
  const breakAfter = options.breakAfter ?? defaultBreakAfter;
  const stop = options.stop ?? runStopSignal;
  const origins = targetOrigins(options.baseUrl, options.alsoTo);
  let failuresInARow = 0;

  return async (o) => {
    const url = /^https?:\/\//.test(o.path) ? o.path : `${base}${o.path}`;
    const headers: Record<string, string> = { ...o.headers };
    if (o.key !== undefined) headers.authorization = `Bearer ${o.key}`;
    let body: string | Buffer | FormData | AsyncIterable<Uint8Array> | undefined = o.rawBody;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['content-type'] ??= 'application/json';
    }
    let multipart: RecordedRequest['multipart'];
    if (o.multipart?.hold) {
      const held = heldMultipart(o.multipart, o.multipart.hold);
      body = held.body;
      headers['content-type'] = held.contentType;
      headers['content-length'] = String(held.length);
    } else if (o.multipart) {
      const form = new FormData();
      form.append(
        o.multipart.field,
        new Blob([o.multipart.bytes], { type: o.multipart.contentType }),
        o.multipart.filename,
      );
      body = form;
    }
    if (o.multipart) {
      multipart = {
        field: o.multipart.field,
        filename: o.multipart.filename,
        contentType: o.multipart.contentType,
        bytes: o.multipart.bytes.length,
      };
    }
    const recorded: RecordedRequest = {
      method: o.method,
      url,
      headers,
      ...(typeof body === 'string' && { body }),
      ...(Buffer.isBuffer(body) && { body: body.toString('utf8') }),
      ...(multipart && { multipart }),
    };
    // A URL outside the target's origin (one a target named) is never sent; it says nothing of the target's transport.
    const refused = refusalOf(url, origins);
    if (refused !== undefined || stop.aborted) {
      const exchange: Exchange = { seq: ++seq, request: recorded, error: refused ?? interrupted(stop), ...op(o) };
      options.onExchange?.(exchange);
      return exchange;
    }
    if (failuresInARow >= breakAfter) {
      const exchange: Exchange = {
        seq: ++seq,
        request: recorded,
        error: `circuit open: the target failed ${failuresInARow} requests in a row at the transport level`,
        ...op(o),
      };
      options.onExchange?.(exchange);
      return exchange;
    }
    const started = performance.now();
    const deadline = AbortSignal.timeout(o.timeoutMs ?? options.timeoutMs ?? defaultTimeoutMs);
    let exchange: Exchange;
    try {
      const res = await request(url, {
        method: o.method as 'GET',
        headers,
        // undici takes an async iterable body (its Dispatcher docs), which its types leave out.
        body: (body ?? null) as Exclude<Dispatcher.RequestOptions['body'], undefined>,
        dispatcher,
        signal: AbortSignal.any([deadline, stop]),
      });
      const { bytes, truncated } = await readBounded(res.body, maxBody);
      if (stop.aborted) throw stop.reason;
      exchange = {
        seq: ++seq,
        request: recorded,
        response: toResponse(res, bytes, truncated, performance.now() - started),
        ...op(o),
      };
    } catch (error) {
      exchange = {
        seq: ++seq,
        request: recorded,
        error: stop.aborted ? interrupted(stop) : describe(error, deadline),
        ...op(o),
      };
    }
    // An interrupted request says nothing of the target: it does not count toward the circuit.
    if (!stop.aborted) failuresInARow = exchange.response ? 0 : failuresInARow + 1;
    options.onExchange?.(exchange);
    return exchange;
  };
}

function op(o: SendOptions): { operationId?: string } {
  return o.operationId === undefined ? {} : { operationId: o.operationId };
}

async function readBounded(
  body: Dispatcher.ResponseData['body'],
  max: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (size > max) {
      chunks.push(buf.subarray(0, buf.length - (size - max)));
      body.destroy();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(buf);
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

function toResponse(
  res: Dispatcher.ResponseData,
  bytes: Buffer,
  truncated: boolean,
  durationMs: number,
): RecordedResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const type = headers['content-type'] ?? '';
  // The spec says answers are JSON, not which Content-Type they carry: a JSON body under text/plain
  // or no Content-Type is still read as JSON (the checks record the header separately).
  const mayBeJson = /json/i.test(type) || type === '' || /^text\//i.test(type);
  const isText = /^(application\/(.*\+)?json|text\/)/i.test(type) || (type === '' && bytes.length <= 64 * 1024);
  let text = isText ? bytes.subarray(0, 64 * 1024).toString('utf8') : '';
  // Within the runner's bounds of size and depth, or not handed to any reader (json-bounds.ts).
  const reading = mayBeJson && !truncated && bytes.length > 0 ? readJsonBody(bytes) : undefined;
  const json = reading !== undefined && 'json' in reading ? reading.json : undefined;
  if (reading !== undefined && text === '') text = bytes.subarray(0, 64 * 1024).toString('utf8');
  const unread = reading !== undefined && 'unread' in reading ? { jsonUnread: reading.unread } : {};
  return { status: res.statusCode, headers, text, json, ...unread, bytes, truncated, durationMs };
}

function interrupted(stop: AbortSignal): string {
  return `interrupted: the run stopped (${stoppedBecause(stop) ?? 'stopped'})`;
}

function describe(error: unknown, deadline: AbortSignal): string {
  if (deadline.aborted) return 'timeout: no complete answer within the time limit';
  const e = error as { code?: string; message?: string };
  return `${e.code ?? 'network error'}: ${e.message ?? String(error)}`;
}
