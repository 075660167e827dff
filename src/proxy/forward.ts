/**
 * Forwarding one request through @fastify/reply-from: the request body passes as a raw stream
 * through a tap, the answer's body likewise, and no header is added or removed beyond the
 * hop-by-hop ones (Host names the upstream, as it must). When the exchange ends, what the taps saw
 * becomes a ProxiedExchange for the observers. An upstream that fails before anything was sent gets
 * the client a 502 (504 on a timeout) in the envelope; after, the client's connection is closed.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
// Types only (reply.from); the plugin itself is loaded by proxy-app.ts, as an optional package.
import type { FastifyReplyFromHooks } from '@fastify/reply-from';
import { BodyTap, ChunkTap } from './body-tap.ts';
import type { ProxiedExchange, UpstreamHead } from './capture.ts';
import { ClientSignal, withClientSignal } from './client-bound-dispatcher.ts';
import { envelope, proxyErrors, type ProxyErrorCode } from './envelope.ts';
import { dropHopByHop, endToEnd } from './hop-by-hop.ts';
import type { CaptureBudget, ProxyLimits } from './limits.ts';

/** What forwarding needs from the proxy. */
export interface ForwardContext {
  readonly upstream: string;
  readonly limits: ProxyLimits;
  readonly budget: CaptureBudget;
  /**
   * Called once per exchange the upstream answered or the client dropped before any answer, when it has
   * ended. Undefined: a bare proxy.
   */
  readonly finished?: (seen: ProxiedExchange) => void;
  nextSeq(): number;
}

/** The request's body through a tap (the raw stream, never parsed): fastify keeps it as the request's body. */
export function tapRequestBody(raw: Readable, context: ForwardContext): BodyTap {
  const tap = new BodyTap(context.finished ? context.limits.jsonBodyBytes : 0, context.budget);
  // An aborted request destroys the tap, and so the upstream request it feeds.
  pipeline(raw, tap, () => {});
  return tap;
}

/** Forwards `request` to the upstream and streams the answer back. */
export function forward(request: FastifyRequest, reply: FastifyReply, context: ForwardContext): void {
  // Node would add a Date header the upstream did not send.
  reply.raw.sendDate = false;
  const exchange = new InFlight(request, reply, context);
  withClientSignal(exchange.client, () => reply.from(request.raw.url, exchange.options));
}

/**
 * One exchange under way: when it began, the upstream's answer and the tap on its body once they
 * came, its deadline and the client's abort. When the client's answer closes, what the taps saw goes
 * to the observers.
 */
class InFlight {
  readonly startedAt = Date.now();
  readonly client = new ClientSignal();
  /** reply-from's options: the shared ones, and this exchange's answer. (No WeakMap: its entries cost every GC.) */
  readonly options: FastifyReplyFromHooks = {
    ...sharedOptions,
    onResponse: (_request, reply, res) => this.#onResponse(reply as FastifyReply, res as unknown as UpstreamAnswer),
  };
  answer: UpstreamHead | undefined;
  responseTap: ChunkTap | undefined;
  readonly #request: FastifyRequest;
  readonly #reply: FastifyReply;
  readonly #context: ForwardContext;
  readonly #deadline: NodeJS.Timeout;
  readonly #socket: Socket | undefined;

  constructor(request: FastifyRequest, reply: FastifyReply, context: ForwardContext) {
    this.#request = request;
    this.#reply = reply;
    this.#context = context;
    const socket = request.raw.socket as Socket | null;
    this.#socket = socket ?? undefined;
    this.#deadline = setTimeout(destroySocket, context.limits.exchangeMs, socket);
    this.#deadline.unref();
    socket?.once('end', this.#gaveUp);
    reply.raw.once('close', this.#closed);
  }

  /**
   * A client that closes its side before any answer came has given up, as Node's own server (the
   * reference server) and nginx read it: the upstream's request is aborted and the connection closed,
   * so the upstream sees the client leave. One that closes it once the answer's head came gets it all.
   */
  readonly #gaveUp = (): void => {
    if (this.answer) return;
    this.#socket?.destroy();
    this.client.abort();
  };

  readonly #closed = (): void => {
    const raw = this.#request.raw;
    const response = this.#reply.raw;
    const context = this.#context;
    clearTimeout(this.#deadline);
    this.#socket?.removeListener('end', this.#gaveUp);
    // The client went before its whole answer: the upstream's request goes too, as the client left it.
    if (!response.writableFinished) this.client.abort();
    const requestTap = this.#request.body instanceof BodyTap ? this.#request.body : undefined;
    // The proxy's own answer (the upstream failed) is no exchange with the upstream; a client gone before
    // any answer is one, unanswered.
    const answer = this.answer;
    const unanswered = !answer && !response.headersSent;
    if ((answer || unanswered) && context.finished) {
      context.finished({
        seq: context.nextSeq(),
        method: raw.method ?? 'GET',
        url: `${context.upstream}${raw.url ?? '/'}`,
        requestHeaders: raw.headers,
        requestBody: seenOf(requestTap),
        ...(answer && { answer }),
        responseBody: seenOf(this.responseTap),
        client: raw.socket?.remoteAddress,
        startedAt: this.startedAt,
        endedAt: Date.now(),
        dropped: !response.writableFinished,
      });
    }
    requestTap?.release();
    this.responseTap?.release();
  };

  /** The upstream's answer came: its head is kept, and its body is watched on its way to the client. */
  #onResponse(reply: FastifyReply, response: UpstreamAnswer): void {
    // The answer's status, headers and body stream, as reply-from hands them over from undici. An answer
    // the proxy already gave (the upstream's status could not be sent on) ends it.
    if (reply.sent) return void response.stream.destroy();
    const headers = response.headers;
    this.answer = { status: response.statusCode, headers, at: Date.now() };
    const context = this.#context;
    const stream = response.stream;
    if (context.finished) {
      const tap = new ChunkTap(captureLimit(this.#request.raw.method, headers, context.limits), context.budget);
      this.responseTap = tap;
      // The body's chunks are watched where fastify pipes them to the client, with no stream in
      // between: 'pipe' comes before the first chunk flows, so none goes by unseen.
      reply.raw.once('pipe', () => stream.on('data', (chunk: Buffer) => tap.observe(chunk)));
    }
    reply.send(stream);
  }
}

function destroySocket(socket: Socket | null): void {
  socket?.destroy();
}

/** reply-from's options that are the same for every exchange. */
const sharedOptions: FastifyReplyFromHooks = {
  rewriteRequestHeaders: (_request, headers) => forwardedHeaders(headers),
  rewriteHeaders: (headers) => endToEnd(headers as IncomingHttpHeaders),
  retryDelay: () => null,
  onError: (reply, { error }) => answerFailure(reply as FastifyReply, error as Error & { code?: string }),
};

interface UpstreamAnswer {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly stream: Readable;
}

/**
 * The request's headers as forwarded: hop-by-hop ones and Expect (answered here) left out, Host the
 * upstream's. `headers` is reply-from's own copy of the client's, so it is changed in place.
 */
function forwardedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const host = headers.host;
  dropHopByHop(headers);
  if (headers.expect !== undefined) delete headers.expect;
  if (host !== undefined) headers.host = host;
  return headers;
}

/** How much of an answer's body the checks see: an image of a GET up to the spec's image size, else JSON's bound. */
function captureLimit(
  method: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  limits: ProxyLimits,
): number {
  const type = String(headers['content-type'] ?? '').toLowerCase();
  return method === 'GET' && type.startsWith('image/') ? limits.imageBodyBytes : limits.jsonBodyBytes;
}

function seenOf(tap: BodyTap | ChunkTap | undefined) {
  if (!tap) return { bytes: Buffer.alloc(0), total: 0, partial: false };
  return { bytes: tap.captured(), total: tap.total, partial: tap.partial };
}

/** The upstream failed: a 502 or 504 in the envelope if nothing was sent yet, else the connection closes. */
function answerFailure(reply: FastifyReply, error: Error & { code?: string; statusCode?: number }): void {
  // Nothing goes to a client that has gone (it gave up, and the upstream's request was aborted for it).
  const gone = reply.raw.destroyed || reply.request.raw.socket?.destroyed === true;
  if (reply.sent || reply.raw.headersSent || gone) return void reply.raw.destroy();
  const timeout = error.statusCode === 504 || /TIMEOUT/i.test(`${error.code ?? ''} ${error.name}`);
  const code: ProxyErrorCode = timeout ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_FAILED';
  const message = timeout
    ? 'The upstream did not answer in time.'
    : `The upstream's answer could not be read or the upstream could not be reached (${upstreamCause(error)}).`;
  reply.raw.sendDate = true;
  // Headers copied from an upstream answer that could not be sent on are not this answer's.
  for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
  reply
    .code(proxyErrors[code])
    .header('content-type', 'application/json; charset=utf-8')
    .header('connection', 'close')
    .send(envelope(code, message));
}

function upstreamCause(error: Error & { code?: string; cause?: unknown }): string {
  const cause = error.cause as { code?: string } | undefined;
  return String(cause?.code ?? error.code ?? 'error').replace(/[^A-Z0-9_]/gi, '');
}
