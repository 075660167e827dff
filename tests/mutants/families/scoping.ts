/**
 * Mutants of the scoping class (issue 12): a rule the spec keeps per account ("scoped to the account
 * of the key"; "once per account"; "per account"), kept by the API key instead. Each shows only
 * across a key rotation: the account's new key loses what the old key made.
 */
import type { MutantContext, Mutation, ProxiedRequest } from '../mutating-proxy.ts';
import { apiError, createBodyOf, isCreate, json, keyOf, readId, withDerivedKey } from '../helpers.ts';
import { edgeLimited } from './limits.ts';

/** The request replays a key the account used before (with any of its API keys). */
function isReplay(req: ProxiedRequest, ctx: MutantContext): boolean {
  const account = ctx.traffic.accountOf(keyOf(req));
  const idem = req.headers['idempotency-key'];
  if (account === undefined || idem === undefined) return false;
  for (const seen of ctx.traffic.idempotency.keys()) {
    const [key, value] = seen.split('\0');
    if (value === idem && ctx.traffic.accountOf(key) === account) return true;
  }
  return false;
}

export const scopingMutants: readonly Mutation[] = [
  {
    name: 'idempotency-keys-per-api-key',
    family: 'idempotency',
    class: 'scoping',
    breaks: ['CREATE-IDEMPOTENCY-REPLAY'],
    does: "Idempotency-Keys are kept per API key: after a key rotation, the account's earlier key value starts a new try-on",
    request: (req) => {
      const key = keyOf(req);
      return isCreate(req) && key !== undefined ? withDerivedKey(req, `api-key:${key}`) : req;
    },
  },
  {
    name: 'tryons-per-api-key',
    family: 'auth',
    class: 'scoping',
    breaks: ['RES-TRYON-ID-RETURNED-ON-CREATE'],
    does: "a try-on is readable only with the API key that created it: the account's new key gets 404 for its earlier try-ons",
    request: (req, ctx) => {
      const id = readId(req);
      const seen = id === undefined ? undefined : ctx.traffic.tryOns.get(id);
      const key = keyOf(req);
      if (!seen || key === undefined || seen.key === key || ctx.traffic.accountOf(key) !== seen.accountId) return req;
      return apiError(404, 'NOT_FOUND', 'No try-on with that id on this account.');
    },
  },
  {
    name: 'image-ids-per-api-key',
    family: 'auth',
    class: 'scoping',
    breaks: ['RES-IMAGE-ID-REUSABLE-WITHIN-24H'],
    does: "an uploaded id is usable only with the API key that uploaded it: after a rotation, the account's uploads give 400 INVALID_IMAGE_ID",
    request: (req, ctx) => {
      const key = keyOf(req);
      const body = isCreate(req) ? createBodyOf(req) : undefined;
      if (!body || key === undefined || isReplay(req, ctx)) return req;
      const foreign = [body.personImageId, body.garmentImageId].some((id) => {
        const upload = typeof id === 'string' ? ctx.traffic.uploads.get(id) : undefined;
        return (
          upload !== undefined && upload.key !== key && ctx.traffic.accountOf(upload.key) === ctx.traffic.accountOf(key)
        );
      });
      return foreign ? apiError(400, 'INVALID_IMAGE_ID', 'The image id is unknown, expired, or not yours.') : req;
    },
  },
  {
    name: 'rotation-tops-up-credits',
    family: 'credits',
    class: 'scoping',
    breaks: ['ACCOUNT-FREE-CREDITS-ONCE'],
    does: 'a key rotation tops the balance back up to the 20 free credits of a first key (credits spent before it are granted again)',
    response: async (res, req, ctx) => {
      const match = /^\/_control\/accounts\/([^/]+)\/rotate-key$/.exec(req.path);
      if (!match || req.method !== 'POST' || res.status !== 200 || typeof json(res)?.apiKey !== 'string') return res;
      const accountId = decodeURIComponent(match[1] ?? '');
      // The balance is read with the new key, which the traffic learns only from this answer.
      const read = await ctx.upstream({
        method: 'GET',
        path: '/api/v1/account',
        headers: { authorization: `Bearer ${json(res).apiKey}` },
        body: Buffer.alloc(0),
      });
      const credits = read.status === 200 ? json(read)?.credits : undefined;
      if (typeof credits === 'number' && credits < 20)
        await ctx.control('PUT', `/accounts/${accountId}/credits`, { credits: 20 });
      return res;
    },
  },
  {
    name: 'starts-window-per-api-key',
    family: 'limits',
    class: 'scoping',
    breaks: ['LIMIT-RATES-PER-ACCOUNT'],
    does: 'the starts window is kept per API key: a rotated key starts a fresh window of 12',
    ...edgeLimited({ bucket: 'starts', windowOf: (_accountId, req) => `key:${keyOf(req) ?? ''}\0starts` }),
  },
];
