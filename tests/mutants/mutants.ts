/**
 * Mutants: each breaks exactly one rule of the spec on top of the real reference server, through
 * the mutating proxy. A mutant that survives a run is a defect in the suite.
 */
import { randomBytes } from 'node:crypto';
import type { Mutation, ProxiedResponse } from './mutating-proxy.ts';

const json = (res: ProxiedResponse): any => {
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    return undefined;
  }
};
const withJson = (res: ProxiedResponse, body: unknown): ProxiedResponse => ({ ...res, body: Buffer.from(JSON.stringify(body)) });
const isCreate = (method: string, path: string) => method === 'POST' && /^\/api\/v1\/tryons(\/sync)?(\?|$)/.test(path);

export const mutants: readonly Mutation[] = [
  {
    name: 'no-retry-after',
    family: 'limits',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    response: (res) => {
      if (res.status !== 429) return res;
      const { ['retry-after']: _dropped, ...headers } = res.headers;
      return { ...res, headers };
    },
  },
  {
    name: 'idempotency-key-accepts-7-characters',
    family: 'validation',
    breaks: ['CREATE-IDEMPOTENCY-KEY-FORMAT', 'ERR-MISSING-IDEMPOTENCY-KEY'],
    request: (req) => {
      const key = req.headers['idempotency-key'];
      if (isCreate(req.method, req.path) && key !== undefined && /^[A-Za-z0-9_-]{7}$/.test(key)) {
        return { ...req, headers: { ...req.headers, 'idempotency-key': `${key}_` } };
      }
      return req;
    },
  },
  {
    name: 'replay-creates-new-tryon',
    family: 'idempotency',
    breaks: ['CREATE-IDEMPOTENCY-REPLAY', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE', 'SYNC-SAME-KEY-PICKS-UP-AFTER-DROP'],
    request: (req) => {
      if (!isCreate(req.method, req.path) || req.headers['idempotency-key'] === undefined) return req;
      return { ...req, headers: { ...req.headers, 'idempotency-key': `fresh-${randomBytes(9).toString('base64url')}` } };
    },
  },
  {
    name: 'lower-case-error-code',
    family: 'codes',
    breaks: ['ERR-ENVELOPE-SHAPE', 'CREATE-ERROR-LIST', 'GET-ERROR-LIST', 'UPLOAD-ERROR-LIST', 'SYNC-SAME-CONTRACT-AS-CREATE', 'ERR-CONSENT-REQUIRED', 'ERR-INVALID-API-KEY'],
    response: (res, req) => {
      if (res.status < 400 || req.path.startsWith('/_control')) return res;
      const body = json(res);
      return typeof body?.code === 'string' ? withJson(res, { ...body, code: body.code.toLowerCase() }) : res;
    },
  },
];
