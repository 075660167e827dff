/**
 * The reverse proxy: fastify with @fastify/reply-from (fastify's own forwarding plugin, on undici 7,
 * streaming both ways; fastify is already the reference server's framework). Every path but
 * `/_proxy/…` is forwarded to the upstream; each finished exchange is handed to the observers. The
 * edge is bounded: deadlines for the client's request and the upstream's answer, caps on
 * connections, and the proxy's own answers in the `{error, code}` envelope.
 */
import { createServer, METHODS, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyReplyFromOptions } from '@fastify/reply-from';
import { loadOptional } from '../shared/optional-packages.ts';
import { toTraffic, type ProxiedExchange } from './capture.ts';
import { clientBoundDispatcher } from './client-bound-dispatcher.ts';
import { ExchangeQueue } from './exchange-queue.ts';
import { capConnections } from './connection-caps.ts';
import { answerSocket, envelope, proxyErrors } from './envelope.ts';
import { forward, tapRequestBody, type ForwardContext } from './forward.ts';
import { CaptureBudget, defaultLimits, type ProxyLimits } from './limits.ts';
import type { ExchangeObserver } from './observer.ts';
import { answerReportRoute, type ProxyReports } from './report-route.ts';
import type { TrafficExchange } from '../traffic/traffic-exchange.ts';

export interface ProxyOptions {
  /** The upstream's origin, e.g. `https://staging.example.com`. */
  readonly upstream: string;
  readonly limits?: Partial<ProxyLimits>;
  /** Who reads each finished exchange. */
  readonly observers?: readonly ExchangeObserver[];
  /** The token `/_proxy/…` needs. */
  readonly token: string;
  readonly reports?: ProxyReports;
  /** No taps, no observers, no report: the same library forwarding, for comparison (the bench). */
  readonly bare?: boolean;
  /** Where a problem of the proxy itself is said (an observer that threw): one line each. */
  readonly warn?: (line: string) => void;
}

export interface ReverseProxy {
  /** Listens; resolves to the proxy's own origin. */
  listen(host: string, port: number): Promise<string>;
  /** Stops taking connections, ends the open ones and the upstream's. */
  close(): Promise<void>;
  /** Exchanges handed to the observers so far. */
  readonly observed: number;
}

/** What a fastify instance needs from the proxy's package loading. */
type FastifyFactory = (options: Record<string, unknown>) => FastifyInstance;

/** Builds the proxy (fastify and @fastify/reply-from are loaded here: optional packages). */
export async function createProxy(options: ProxyOptions): Promise<ReverseProxy> {
  const limits: ProxyLimits = { ...defaultLimits, ...options.limits };
  const fastify = await loadOptional<FastifyFactory>('proxy', 'fastify');
  const replyFrom = await loadOptional<FastifyPluginCallback<FastifyReplyFromOptions>>('proxy', '@fastify/reply-from');
  const observers = options.bare ? [] : [...(options.observers ?? [])];
  let observed = 0;
  let seq = 0;
  const warned = new Set<ExchangeObserver>();
  const observe = (seen: ProxiedExchange) => {
    let traffic: TrafficExchange;
    try {
      traffic = toTraffic(seen);
    } catch (error) {
      options.warn?.(`proxy: an exchange could not be recorded: ${(error as Error).message}`);
      return;
    }
    observed += 1;
    for (const observer of observers) {
      try {
        observer.observe(traffic);
      } catch (error) {
        if (warned.has(observer)) continue;
        warned.add(observer);
        options.warn?.(`proxy: an observer failed on an exchange and is skipped for it: ${(error as Error).message}`);
      }
    }
  };
  // Observed after the turn's answers are out, in order, every one (exchange-queue.ts).
  const queue = new ExchangeQueue(observe, capturedBytes);
  const context: ForwardContext = {
    upstream: new URL(options.upstream).origin,
    limits,
    budget: new CaptureBudget(limits.captureBudgetBytes),
    ...(!options.bare && { finished: (seen: ProxiedExchange) => queue.push(seen) }),
    nextSeq: () => ++seq,
  };
  let sockets = new Set<Socket>();
  const app = fastify({
    logger: false,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    routerOptions: { maxParamLength: 65_535 },
    serverFactory: (handler: Parameters<typeof createServer>[1]) => {
      const server = edgeServer(limits, handler);
      sockets = capConnections(
        server,
        { perClient: limits.connectionsPerClient, total: limits.connectionsTotal },
        (s) => answerSocket(s, 'PROXY_BUSY', 'Too many connections are open; retry shortly.', { 'retry-after': '1' }),
      );
      return server;
    },
    clientErrorHandler: answerClientError,
  });
  for (const method of METHODS)
    if (!app.supportedMethods.includes(method) && method !== 'CONNECT') app.addHttpMethod(method, { hasBody: true });
  // Bodies are never parsed: the raw stream goes on through a tap.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, tapRequestBody(payload as Readable, context)));
  const upstreamAgent = clientBoundDispatcher({
    connections: limits.upstreamConnections,
    pipelining: 1,
    keepAliveTimeout: 4_000,
    headersTimeout: limits.upstreamHeadersMs,
    bodyTimeout: limits.upstreamBodyIdleMs,
    maxHeaderSize: limits.maxHeaderBytes,
    connect: { timeout: 10_000 },
  });
  await app.register(replyFrom, {
    base: context.upstream,
    disableRequestLogging: true,
    // reply-from takes any object with undici's `request` as its instance.
    undici: upstreamAgent,
  });
  app.addHook('onClose', async () => upstreamAgent.destroy());
  const methods = app.supportedMethods.filter((m) => m !== 'CONNECT');
  const own = (request: FastifyRequest, reply: FastifyReply) => {
    // A report reads every exchange that has finished, judged or waiting.
    queue.flush();
    const url = new URL(request.raw.url ?? '/', 'http://proxy.invalid');
    const answer = answerReportRoute(
      url.pathname,
      url.searchParams,
      request.headers,
      options.token,
      reportsOf(options),
    );
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  };
  app.route({ method: methods, url: '/_proxy', handler: own });
  app.route({ method: methods, url: '/_proxy/*', handler: own });
  app.route({
    method: methods,
    url: '/*',
    handler: (request, reply) => {
      if (hasUnreadBody(request)) {
        return sendError(reply, 'INVALID_REQUEST', `A ${request.method} request with a body is not forwarded.`);
      }
      forward(request, reply, context);
      return reply;
    },
  });
  app.setNotFoundHandler((_request, reply) =>
    sendError(reply, 'NOT_FOUND', 'The proxy forwards paths only (origin-form).'),
  );
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    if (reply.sent || reply.raw.headersSent) return void reply.raw.destroy();
    const client = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500;
    if (client) return sendError(reply, 'INVALID_REQUEST', 'The request could not be forwarded as it is.');
    return sendError(reply, 'UPSTREAM_FAILED', 'The request could not be forwarded.');
  });
  return {
    listen: async (host, port) => {
      await app.listen({ host, port });
      const address = app.server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${shown}:${address.port}`;
    },
    close: async () => {
      const closing = app.close();
      for (const socket of sockets) socket.destroy();
      await closing;
      queue.flush();
    },
    get observed() {
      queue.flush();
      return observed;
    },
  };
}

/** The body bytes a finished exchange holds while it waits to be observed. */
function capturedBytes(seen: ProxiedExchange): number {
  return seen.requestBody.bytes.length + seen.responseBody.bytes.length;
}

/** The report routes' sources: the given ones, or none. */
function reportsOf(options: ProxyOptions): ProxyReports {
  return options.reports ?? {};
}

/** The HTTP server the proxy listens on: Node's, with the client's deadlines and header bound. */
function edgeServer(limits: ProxyLimits, handler: Parameters<typeof createServer>[1]): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      keepAliveTimeout: limits.keepAliveMs,
      maxHeaderSize: limits.maxHeaderBytes,
      connectionsCheckingInterval: Math.min(1_000, limits.headersMs),
      requireHostHeader: false,
    },
    handler,
  );
  server.maxConnections = limits.connectionsTotal + 64;
  // A client may half-close once its request is sent (RFC 9112 9.6): it still gets its answer. Node
  // would abort the request instead; an unfinished one is still a client error (answerClientError).
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // Held answers (a sync request waits about 55 s) are bounded by the upstream's deadlines, not idleness.
  server.setTimeout(0);
  server.on('connect', (_request, socket: Duplex) =>
    answerSocket(socket, 'METHOD_NOT_ALLOWED', 'CONNECT is not forwarded.'),
  );
  return server;
}

/** A GET or HEAD (or any request fastify does not parse a body of) that nonetheless declares one. */
function hasUnreadBody(request: FastifyRequest): boolean {
  if (request.body !== undefined) return false;
  const headers = request.raw.headers;
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}

function sendError(reply: FastifyReply, code: keyof typeof proxyErrors, message: string): FastifyReply {
  return reply
    .code(proxyErrors[code])
    .header('content-type', 'application/json; charset=utf-8')
    .header('connection', 'close')
    .send(envelope(code, message));
}

/** What Node's parser or the deadlines refused: an envelope answer, or a close when one is under way. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || socket.destroyed || current?.headersSent) {
    return void socket.destroy();
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return answerSocket(socket, 'REQUEST_TIMEOUT', 'The request did not arrive in time.');
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return answerSocket(socket, 'INVALID_REQUEST', 'The request headers are too large.');
  answerSocket(socket, 'INVALID_REQUEST', `The request could not be read${error.code ? ` (${error.code})` : ''}.`);
}
