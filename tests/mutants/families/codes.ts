/** Mutants of the codes family (spec: Errors; Unknown paths and methods). */
import type { Mutation, ProxiedResponse } from '../mutating-proxy.ts';
import { apiError, codeOf, createBodyOf, isApi, isCreate, json, pathOf, withJson } from '../helpers.ts';

/** Paths that have an endpoint (the reference's routing table): a 404 elsewhere is a routing 404. */
const knownPaths = [
  /^\/api\/v1\/tryons$/,
  /^\/api\/v1\/tryons\/sync$/,
  /^\/api\/v1\/tryons\/[^/]+$/,
  /^\/api\/v1\/images$/,
  /^\/api\/v1\/account$/,
];
const isKnownPath = (path: string) => knownPaths.some((p) => p.test(path));

/** An API error answer (not test control). */
const isApiError = (res: ProxiedResponse, path: string) => res.status >= 400 && !path.startsWith('/_control');

export const codesMutants: readonly Mutation[] = [
  {
    name: 'lower-case-error-code',
    family: 'codes',
    breaks: [
      'ERR-ENVELOPE-SHAPE',
      'CREATE-ERROR-LIST',
      'GET-ERROR-LIST',
      'UPLOAD-ERROR-LIST',
      'SYNC-SAME-CONTRACT-AS-CREATE',
      'ERR-CONSENT-REQUIRED',
      'ERR-INVALID-API-KEY',
    ],
    does: 'every error code is sent in lower case',
    response: (res, req) => {
      if (!isApiError(res, req.path)) return res;
      const body = json(res);
      return typeof body?.code === 'string' ? withJson(res, { ...body, code: body.code.toLowerCase() }) : res;
    },
  },
  {
    name: 'invalid-url-as-download-failed',
    family: 'codes',
    breaks: ['ERR-INVALID-IMAGE-URL'],
    does: 'a URL refused by the static rules gets 400 IMAGE_DOWNLOAD_FAILED (a documented 400 code, the wrong one) instead of INVALID_IMAGE_URL',
    response: (res, req) =>
      isCreate(req) && res.status === 400 && codeOf(res) === 'INVALID_IMAGE_URL'
        ? withJson(res, { ...json(res), code: 'IMAGE_DOWNLOAD_FAILED' })
        : res,
  },
  {
    name: 'image-too-large-as-400',
    family: 'codes',
    breaks: ['ERR-IMAGE-TOO-LARGE'],
    does: 'IMAGE_TOO_LARGE is sent with status 400 instead of 413',
    response: (res) => (res.status === 413 && codeOf(res) === 'IMAGE_TOO_LARGE' ? { ...res, status: 400 } : res),
  },
  {
    name: 'malformed-json-500',
    family: 'codes',
    breaks: ['ERR-MALFORMED-JSON-IMPL-DEFINED'],
    does: 'a create body that is not a JSON object gets 500 INTERNAL_ERROR instead of a 4xx',
    response: (res, req) => {
      if (!isCreate(req) || res.status !== 400 || codeOf(res) !== 'INVALID_REQUEST' || createBodyOf(req) !== undefined)
        return res;
      return apiError(500, 'INTERNAL_ERROR', 'Unexpected token in JSON.');
    },
  },
  {
    name: 'unknown-path-405',
    family: 'codes',
    breaks: ['ROUTING-UNKNOWN-PATH-404'],
    does: 'a path with no endpoint gets 405 METHOD_NOT_ALLOWED instead of 404 NOT_FOUND',
    response: (res, req) => {
      const path = pathOf(req);
      if (!isApi(req) || res.status !== 404 || codeOf(res) !== 'NOT_FOUND' || isKnownPath(path)) return res;
      return apiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not accepted here.`);
    },
  },
  {
    name: 'wrong-method-404',
    family: 'codes',
    breaks: ['ROUTING-WRONG-METHOD-405'],
    does: 'a method a known path does not accept gets 404 NOT_FOUND instead of 405 METHOD_NOT_ALLOWED',
    response: (res) =>
      res.status === 405 && codeOf(res) === 'METHOD_NOT_ALLOWED'
        ? apiError(404, 'NOT_FOUND', 'No endpoint at this path.')
        : res,
  },
  {
    name: 'error-field-missing',
    family: 'codes',
    breaks: ['ERR-ENVELOPE-SHAPE'],
    does: 'error answers carry only {code}, without the error text',
    response: (res, req) => {
      if (!isApiError(res, req.path)) return res;
      const body = json(res);
      if (typeof body?.code !== 'string') return res;
      const { error: _dropped, ...rest } = body;
      return withJson(res, rest);
    },
  },
  {
    name: 'error-text-empty',
    family: 'codes',
    breaks: ['ERR-ERROR-HUMAN-READABLE'],
    does: 'error answers carry an empty error text ("")',
    response: (res, req) => {
      if (!isApiError(res, req.path)) return res;
      const body = json(res);
      return typeof body?.code === 'string' ? withJson(res, { ...body, error: '' }) : res;
    },
  },
];
