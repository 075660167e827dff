/**
 * The HTTP edge below the routes: what Node's parser and fastify answer before any route runs is in the
 * `{error, code}` envelope too, and the connection closes cleanly after. Unreadable or oversized head, a bad
 * `Expect`, no `Host` (RFC 9112 3.2), a half-close mid-request: 400 INVALID_REQUEST; not all arrived by the
 * deadline: 408; over the receiving caps or during shutdown: 503 with Retry-After; CONNECT, an undecodable URL
 * or an over-long parameter: 404. An answer sent before the body was read closes the connection, undrained.
 */
import {
  createServer,
  STATUS_CODES,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiErrors, type ErrorCode } from '../api-errors.ts';
import type { ServerSettings } from '../config.ts';
import { routingError, send } from './errors.ts';
import { capReceiving, noteRequest } from './receiving-caps.ts';

/** How long a connection closed after its answer may stay open, unread, for the client to read that answer. */
const lingerMs = 2_000;

/** The fastify options of the edge: deadlines, and the handlers of answers fastify gives itself. */
export function transportOptions(settings: ServerSettings): FastifyHttpOptions<Server> {
  return {
    requestTimeout: settings.requestDeadlineMs,
    keepAliveTimeout: settings.keepAliveMs,
    // Longer than any id the API issues, so that an over-long id reaches its route and gets 404.
    routerOptions: { maxParamLength: 2048 },
    // The server fastify would make (http.createServer with these deadlines), with one listener that
    // notes each connection's request for the caps, checks the answer to one that declares a body
    // (closeIfAnsweredEarly), and answers a request without Host or during shutdown, before fastify
    // routes it (no second 'request' listener, no WeakMap write and no onSend hook per request).
    serverFactory: (route: RequestListener) => {
      const server: EdgeServer = createServer(
        {
          requestTimeout: settings.requestDeadlineMs,
          headersTimeout: Math.min(settings.headersDeadlineMs, settings.requestDeadlineMs),
          connectionsCheckingInterval: settings.deadlineCheckMs,
          // Answered below, in the envelope; Node's own answer has an empty body.
          requireHostHeader: false,
        },
        (request, response) => {
          const socket = request.socket;
          // A connection refused at accept gets no route for its request.
          if (answered.has(socket)) return void socket.destroy();
          const headers = request.headers;
          const hasBody = declaresBody(headers);
          const admitted = noteRequest(socket, hasBody, headers['x-forwarded-for']);
          // A request without a body has all arrived with its headers: its answer needs no check.
          if (hasBody) closeIfAnsweredEarly(request, response);
          if (!admitted) return answerResponse(response, 'UNAVAILABLE', tooManyReceiving, { 'retry-after': '1' });
          if (headers.host === undefined && request.httpVersionMajor === 1 && request.httpVersionMinor === 1) {
            return answerResponse(response, 'INVALID_REQUEST', 'An HTTP/1.1 request must carry a Host header.');
          }
          if (server[shuttingDown]) {
            const message = 'The server is shutting down; retry shortly.';
            return answerResponse(response, 'UNAVAILABLE', message, { 'retry-after': '1' });
          }
          route(request, response);
        },
      );
      // What fastify sets on a server it makes itself (a connection timeout of 0: none).
      server.keepAliveTimeout = settings.keepAliveMs;
      server.requestTimeout = settings.requestDeadlineMs;
      server.setTimeout(0);
      return server;
    },
    // Requests that arrive while the server closes are answered in the envelope above, not by fastify.
    return503OnClosing: false,
    clientErrorHandler: (error: Error & { code?: string }, socket: Duplex) => answerClientError(error, socket),
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      // FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH: no endpoint, and no try-on, answers to that path.
      if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH')
        return send(reply, 'NOT_FOUND', 'No endpoint at this path.');
      return send(reply, 'INVALID_REQUEST', 'The request could not be read.');
    },
  };
}

/** Installs the socket-level guards on the server of `app` (before it listens). */
export function installTransportGuards(app: FastifyInstance, settings: ServerSettings): void {
  const server = app.server as Server;
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const path = request.url ?? '';
    const code: ErrorCode = path.startsWith('/') ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND';
    if (code === 'NOT_FOUND') return answerRaw(socket, 'NOT_FOUND', 'No endpoint at this path.');
    // A CONNECT to a path: whatever the path is, no endpoint takes CONNECT.
    return answerRaw(socket, code, 'CONNECT is not accepted here.');
  });
  server.on('checkExpectation', (request, response) => {
    const body = JSON.stringify({
      error: `Expect: ${String(request.headers.expect)} is not supported; only 100-continue is.`,
      code: 'INVALID_REQUEST',
    });
    response.writeHead(apiErrors.INVALID_REQUEST.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  });
  server.on('connection', (socket: Duplex) => socket.prependListener('end', answerUnfinished));
  app.addHook('preClose', (done) => {
    (server as EdgeServer)[shuttingDown] = true;
    done();
  });
  capReceiving(server, settings, { refuse: refuseConnection, isClosing: (socket) => lingering.has(socket) });
}

const shuttingDown = Symbol('shutting down');

type EdgeServer = Server & { [shuttingDown]?: boolean };

/** Answers `response` in the envelope and closes the connection after it (unread, if its body is still arriving). */
function answerResponse(
  response: ServerResponse,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ error: message, code });
  const length = Buffer.byteLength(body);
  const type = 'application/json; charset=utf-8';
  response.writeHead(apiErrors[code].status, {
    'content-type': type,
    'content-length': length,
    connection: 'close',
    ...headers,
  });
  response.end(body);
}

/** On a client's half-close: 400 for a request that has not all arrived (before Node aborts it unanswered). */
function answerUnfinished(this: Duplex): void {
  const socket = this as Duplex & {
    parser?: { incoming?: IncomingMessage | null } | null;
    _httpMessage?: ResponseState;
  };
  const request = socket.parser?.incoming;
  if (!request || request.complete || socket._httpMessage?.headersSent) return;
  answerRaw(socket, 'INVALID_REQUEST', 'The connection was half-closed before the request had all arrived.');
}

type ResponseState = { headersSent?: boolean };

/** Refuses a connection over a cap: 503 in the envelope, unless an answer is on its way (then it just closes). */
function refuseConnection(socket: Duplex): void {
  const current = (socket as Duplex & { _httpMessage?: ResponseState })._httpMessage;
  if (current?.headersSent) return void socket.destroy();
  answerRaw(socket, 'UNAVAILABLE', tooManyReceiving, { 'retry-after': '1' });
}

const tooManyReceiving = 'Too many connections of this client are still sending their request; retry shortly.';

/** Whether a request has a body: a request with no Content-Length and no Transfer-Encoding has none (RFC 9112 6.3). */
export function declaresBody(headers: IncomingHttpHeaders): boolean {
  return headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
}

/**
 * A response sent while the request body is still arriving ends the connection after it, and the
 * rest of the body is never read: Node would otherwise drain it to keep the connection alive.
 * Checked as the head is written, whoever writes it (a route, an error, fastify's own 404), for the
 * requests that declare a body only: no hook, and nothing at all on a read.
 */
function closeIfAnsweredEarly(request: IncomingMessage, response: ServerResponse): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!request.complete) {
      this.setHeader('connection', 'close');
      const socket = request.socket as Duplex & { destroySoon?: () => void };
      // Node ends a `connection: close` answer with destroySoon(); this one stops reading instead.
      socket.destroySoon = () => closeWithoutReading(socket);
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/** The status and code of a client error from Node's HTTP parser or its deadlines. */
function clientErrorAnswer(error: Error & { code?: string }): { code: ErrorCode; message: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time.' };
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return { code: 'INVALID_REQUEST', message: 'The request headers are too large.' };
  return { code: 'INVALID_REQUEST', message: `The request could not be read${error.code ? ` (${error.code})` : ''}.` };
}

const answered = new WeakSet<Duplex>();

function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || socket.destroyed) {
    socket.destroy();
    return;
  }
  // A response already on its way cannot be replaced by another: close without one.
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (current?.headersSent) {
    socket.destroy();
    return;
  }
  const { code, message } = clientErrorAnswer(error);
  answerRaw(socket, code, message);
}

/** Writes one envelope answer straight to the socket, and closes the connection without reading more. */
export function answerRaw(
  socket: Duplex,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (answered.has(socket) || socket.destroyed) return;
  answered.add(socket);
  const status = apiErrors[code].status;
  const body = JSON.stringify({ error: message, code });
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n`;
  if (socket.writable) socket.write(head + body);
  closeWithoutReading(socket);
}

/**
 * Ends a connection after its answer without reading any more of it: reading stops at once, our
 * side is closed, and the socket is destroyed once the client closes or after `lingerMs`. Not
 * destroying at once matters: closing a socket with unread input resets the connection, and a
 * client still sending would lose the answer sent just before.
 */
export function closeWithoutReading(socket: Duplex): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Node resumes a request it drains on the next tick; nothing may start this socket reading again.
  const handle = (socket as Duplex & { _handle?: { readStop?: () => number; readStart?: () => number } | null })
    ._handle;
  handle?.readStop?.();
  if (handle) handle.readStart = () => 0;
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.on('error', () => socket.destroy());
  if (!socket.writableEnded) socket.end();
}

const lingering = new WeakSet<Duplex>();

export { routingError };
