/** Mutants of the auth family (spec: Authentication). */
import type { Mutation } from '../mutating-proxy.ts';
import {
  codeOf,
  createBodyOf,
  isApi,
  isCreate,
  keyOf,
  perProxy,
  readId,
  withBody,
  withDerivedKey,
} from '../helpers.ts';

const foreignCopies = perProxy(() => new Map<string, string>());
const imageFields = ['personImageId', 'garmentImageId'] as const;
const dayMs = 24 * 3600 * 1000;

export const authMutants: readonly Mutation[] = [
  {
    name: 'revoked-key-still-works',
    family: 'auth',
    breaks: ['AUTH-REVOKED-KEY-401'],
    does: 'revoking a key has no effect: the server answers the revoke, and the key keeps authenticating as its account',
    request: (req) => {
      if (req.method === 'POST' && /^\/_control\/accounts\/([^/]+)\/revoke-key$/.test(req.path)) {
        const accountId = /accounts\/([^/]+)\//.exec(req.path)?.[1] ?? '';
        return {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: Buffer.from(JSON.stringify({ accountId, revoked: true })),
        };
      }
      return req;
    },
  },
  {
    name: 'rotated-key-still-works',
    family: 'auth',
    breaks: ['AUTH-ONE-ACTIVE-KEY'],
    does: 'a key replaced by a newer one keeps authenticating as its account (two active keys)',
    request: (req, ctx) => {
      let key = keyOf(req);
      if (!isApi(req) || key === undefined || !ctx.traffic.rotated.has(key)) return req;
      while (key !== undefined && ctx.traffic.rotated.has(key)) key = ctx.traffic.rotated.get(key);
      return { ...req, headers: { ...req.headers, authorization: `Bearer ${key}` } };
    },
  },
  {
    name: 'missing-authorization-accepted',
    family: 'auth',
    breaks: ['AUTH-BEARER-REQUIRED'],
    does: 'a request with no Authorization header at all is served as the first account',
    request: (req, ctx) => {
      if (!isApi(req) || req.headers.authorization !== undefined) return req;
      // The first account the proxy saw made, else the first key it saw answered (made before the proxy looked).
      const seen = ctx.traffic.firstAnsweredKey;
      const first =
        ctx.traffic.accounts.map((a) => ctx.traffic.currentKeyOf(a)).find((k) => ctx.traffic.isLive(k)) ??
        (seen !== undefined && !ctx.traffic.revoked.has(seen) && !ctx.traffic.rotated.has(seen) ? seen : undefined);
      return first === undefined ? req : { ...req, headers: { ...req.headers, authorization: `Bearer ${first}` } };
    },
  },
  {
    name: 'foreign-tryon-readable',
    family: 'auth',
    breaks: ['AUTH-FOREIGN-TRYON-NOT-FOUND'],
    does: "GET /tryons/{id} of another account's try-on answers it (read with its creator's key) instead of 404",
    response: async (res, req, ctx) => {
      const id = readId(req);
      const owner = id === undefined ? undefined : ctx.traffic.tryOns.get(id);
      if (res.status !== 404 || owner === undefined || owner.key === keyOf(req)) return res;
      return ctx.upstream({ ...req, headers: { ...req.headers, authorization: `Bearer ${owner.key}` } });
    },
  },
  {
    name: 'foreign-image-id-usable',
    family: 'auth',
    breaks: ['AUTH-FOREIGN-IMAGE-ID-INVALID'],
    does: "a create with another account's (unexpired) image id is served: the image is used as if this account had uploaded it",
    response: async (res, req, ctx) => {
      const key = keyOf(req);
      const body = createBodyOf(req);
      if (
        !isCreate(req) ||
        res.status !== 400 ||
        codeOf(res) !== 'INVALID_IMAGE_ID' ||
        body === undefined ||
        key === undefined
      )
        return res;
      const copies = foreignCopies(ctx);
      const fixed: Record<string, unknown> = { ...body };
      let changed = false;
      for (const field of imageFields) {
        const id = body[field];
        const upload = typeof id === 'string' ? ctx.traffic.uploads.get(id) : undefined;
        if (upload === undefined || upload.key === key || ctx.traffic.now() - upload.at >= dayMs) continue;
        let copy = copies.get(`${key}\0${upload.id}`);
        if (copy === undefined) {
          const again = await ctx.upstream({
            ...upload.request,
            headers: { ...upload.request.headers, authorization: `Bearer ${key}` },
          });
          const made =
            again.status === 200 ? (JSON.parse(again.body.toString('utf8')) as { id?: unknown }).id : undefined;
          if (typeof made !== 'string') return res;
          copy = made;
          copies.set(`${key}\0${upload.id}`, copy);
        }
        fixed[field] = copy;
        changed = true;
      }
      return changed ? ctx.upstream(withDerivedKey(withBody(req, fixed), 'foreign-image')) : res;
    },
  },
];
