/**
 * The error envelope at the HTTP edge (spec: Errors; Unknown paths and methods). Every error
 * leaves as `{error, code}` with the catalogue's status; nothing a client sends may turn into a 5xx
 * other than the documented scenario codes, so framework errors are mapped to 4xx codes here.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, apiErrors, type ErrorCode } from '../api-errors.ts';

/** Methods each known path accepts; the literal /tryons/sync wins over /tryons/{id}. */
const knownPaths: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/api\/v1\/tryons$/, 'POST'],
  [/^\/api\/v1\/tryons\/sync$/, 'POST'],
  [/^\/api\/v1\/tryons\/[^/]+$/, 'GET, HEAD'],
  [/^\/api\/v1\/images$/, 'POST'],
  [/^\/api\/v1\/account$/, 'GET, HEAD'],
  [/^\/i\/[^/]+$/, 'GET, HEAD'],
];

/** Framework error codes that are the client's doing, and the API code each becomes. */
const clientFaults: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'INVALID_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_REQUEST',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_REQUEST',
  FST_REQ_FILE_TOO_LARGE: 'IMAGE_TOO_LARGE',
  FST_FILES_LIMIT: 'INVALID_REQUEST',
  FST_PARTS_LIMIT: 'INVALID_REQUEST',
  FST_FIELDS_LIMIT: 'INVALID_REQUEST',
  FST_PROTO_VIOLATION: 'INVALID_REQUEST',
};

export function send(reply: FastifyReply, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
  return reply
    .code(apiErrors[code].status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send({ error: message, code });
}

/** Installs the error handler and the 404/405 handler. */
export function installErrorHandling(app: FastifyInstance, onUnexpected: (error: unknown) => void): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    // An unknown route is a 404/405 whatever its body: fastify parses bodies before it finds out.
    if (request.is404) return routingError(request.method, request.url, reply);
    if (error instanceof ApiError) return send(reply, error.code, error.message, { ...error.headers });
    const mapped = error.code ? clientFaults[error.code] : undefined;
    if (mapped) return send(reply, mapped, error.message);
    if (error instanceof SyntaxError || (error.statusCode !== undefined && error.statusCode < 500)) {
      return send(reply, 'INVALID_REQUEST', 'The request could not be read.');
    }
    onUnexpected(error);
    return send(reply, 'INTERNAL_ERROR', apiErrors.INTERNAL_ERROR.message);
  });

  app.setNotFoundHandler((request, reply) => routingError(request.method, request.url, reply));

  // Literal paths that a parameter route would otherwise swallow: `/tryons/sync` takes only POST
  // (so GET /tryons/sync is a 405, not a read of try-on "sync"), and `/tryons/` has no endpoint.
  app.route({
    method: ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'],
    url: '/api/v1/tryons/sync',
    handler: (request, reply) => routingError(request.method, request.url, reply),
  });
  app.all('/api/v1/tryons/', (request, reply) => routingError(request.method, request.url, reply));
}

/** 405 with Allow when the path is known, else 404 (spec: Unknown paths and methods). */
export function routingError(method: string, url: string, reply: FastifyReply) {
  const path = url.split('?')[0] ?? '';
  const known = knownPaths.find(([pattern]) => pattern.test(path));
  if (known)
    return send(reply, 'METHOD_NOT_ALLOWED', `${method} is not accepted here; use ${known[1]}.`, { allow: known[1] });
  return send(reply, 'NOT_FOUND', 'No endpoint at this path.');
}
