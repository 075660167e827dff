/**
 * Variants whose bodies carry more than the spec lists, or differ between reads in what the spec
 * does not pin down (issue 11, "Reading a whole body as equal").
 */
import { randomBytes } from 'node:crypto';
import { isApi, isCreate, isUpload, json, perProxy, readId, withJson } from '../../mutants/helpers.ts';
import type { ProxiedRequest, ProxiedResponse } from '../../mutants/mutating-proxy.ts';
import type { Variant } from '../variant.ts';

const addingFields =
  'Versioning: "Deprecation policy and the rules for adding or changing fields: not shown." The field tables list what a body has, not that it has nothing else.';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The kind of resource a successful API answer describes. */
function kindOf(req: ProxiedRequest): 'tryon' | 'image' | 'account' | undefined {
  if (isCreate(req) || readId(req) !== undefined) return 'tryon';
  if (isUpload(req)) return 'image';
  if (req.method === 'GET' && req.path.split('?')[0] === '/api/v1/account') return 'account';
  return undefined;
}

/** When the proxy first saw each resource id (server clock), so an added field stays the same across reads. */
const firstSeen = perProxy(() => new Map<string, string>());

function addToSuccess(
  res: ProxiedResponse,
  req: ProxiedRequest,
  add: (body: Record<string, unknown>, kind: 'tryon' | 'image' | 'account') => Record<string, unknown>,
): ProxiedResponse {
  const kind = kindOf(req);
  const body = json(res);
  if (!kind || res.status >= 400 || !isObject(body)) return res;
  const next = add(body, kind);
  return next === body ? res : withJson(res, next);
}

let counter = 0;

export const wholeBodyVariants: readonly Variant[] = [
  {
    name: 'extra-fields-in-resources',
    class: 'whole-body-equality',
    allowedBy: addingFields,
    does: 'every try-on, upload and account body carries extra fields ("object", "createdAt", "livemode"), the same at every read',
    response: (res, req, ctx) =>
      addToSuccess(res, req, (body, kind) => {
        const id = typeof body.id === 'string' ? body.id : kind;
        const seen = firstSeen(ctx);
        if (!seen.has(id)) seen.set(id, new Date(ctx.traffic.now()).toISOString());
        return { object: kind, ...body, createdAt: seen.get(id), livemode: false };
      }),
  },
  {
    name: 'extra-fields-in-errors',
    class: 'whole-body-equality',
    allowedBy:
      'Errors: "Every error response is JSON of the shape `{ "error": string, "code": string }`." A body with both members, strings, has that shape; added members are not excluded (and Versioning: "the rules for adding or changing fields: not shown").',
    does: 'every error body also carries "requestId" (new at each answer) and "docs" (a link per code)',
    response: (res) => {
      const body = json(res);
      if (res.status < 400 || !isObject(body) || typeof body.code !== 'string') return res;
      return withJson(res, {
        ...body,
        requestId: `req_${randomBytes(8).toString('hex')}`,
        docs: `https://docs.example.com/errors#${body.code}`,
      });
    },
  },
  {
    name: 'reads-differ-in-served-at',
    class: 'whole-body-equality',
    allowedBy: `${addingFields} POST /tryons, rule 3: "Reusing an Idempotency-Key returns the earlier try-on" (the same try-on, not byte-identical bodies).`,
    does: 'every try-on answer (create, replay, sync, read) carries "servedAt" and "etag" that change at every answer',
    response: (res, req, ctx) =>
      addToSuccess(res, req, (body, kind) =>
        kind === 'tryon'
          ? { ...body, servedAt: new Date(ctx.traffic.now()).toISOString(), etag: `W/"${(counter += 1)}"` }
          : body,
      ),
  },
  {
    name: 'error-wording-varies',
    class: 'whole-body-equality',
    allowedBy:
      'Errors: "`error` is human-readable and may change in wording; `code` is stable and is what clients branch on." Versioning: "The wording of the `error` field may change; the `code` values are stable."',
    does: 'every error text is reworded and numbered, so no two answers carry the same `error` text',
    response: (res, req) => {
      const body = json(res);
      if (!isApi(req) && !req.path.startsWith('/i/')) return res;
      if (res.status < 400 || !isObject(body) || typeof body.error !== 'string') return res;
      counter += 1;
      return withJson(res, {
        ...body,
        error: `Request refused (${String(body.code).toLowerCase().replaceAll('_', ' ')}), incident ${counter}.`,
      });
    },
  },
  {
    name: 'no-replayed-header',
    class: 'reference-choices',
    allowedBy:
      'POST /tryons, rule 3: "Reusing an Idempotency-Key returns the earlier try-on instead of starting or charging again." No header is named for a replay.',
    does: 'a replay carries no Idempotent-Replayed header (the reference adds Idempotent-Replayed: true)',
    response: (res) => {
      if (res.headers['idempotent-replayed'] === undefined) return res;
      const { ['idempotent-replayed']: _dropped, ...headers } = res.headers;
      return { ...res, headers };
    },
  },
  {
    name: 'expires-at-with-offset',
    class: 'whole-body-equality',
    allowedBy:
      'Uploaded image: "expiresAt | string | ISO 8601 timestamp, 24 hours after the upload." ISO 8601 allows a UTC offset and leaves out fractions of a second.',
    does: "an upload's expiresAt is written with a +05:30 offset and whole seconds (the same instant, rounded down)",
    response: (res, req) =>
      addToSuccess(res, req, (body, kind) => {
        if (kind !== 'image' || typeof body.expiresAt !== 'string') return body;
        const at = new Date(Date.parse(body.expiresAt) + 5.5 * 3_600_000).toISOString().slice(0, 19);
        return { ...body, expiresAt: `${at}+05:30` };
      }),
  },
];
