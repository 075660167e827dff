/** Mutants of the credits family (spec: Pricing; Account credits; States and transitions rule 3). */
import type { MutantContext, Mutation, ProxiedRequest, ProxiedResponse } from '../mutating-proxy.ts';
import { codeOf, isCreate, isSyncCreate, isUpload, json, keyOf, perProxy, readId } from '../helpers.ts';

/** The try-on an answer shows, when it is a read or a sync 200. */
function shownTryOn(res: ProxiedResponse, req: ProxiedRequest): { id: string; status: string } | undefined {
  if (res.status !== 200 || (readId(req) === undefined && !isSyncCreate(req))) return undefined;
  const body = json(res);
  return typeof body?.id === 'string' && typeof body.status === 'string'
    ? { id: body.id, status: body.status }
    : undefined;
}

/** Charges (or credits) once per try-on id, the first time an answer shows it in `status`. */
function oncePerTryOn(status: string, delta: number) {
  const done = perProxy(() => new Set<string>());
  return async (res: ProxiedResponse, req: ProxiedRequest, ctx: MutantContext): Promise<ProxiedResponse> => {
    const shown = shownTryOn(res, req);
    if (shown?.status !== status || done(ctx).has(shown.id)) return res;
    done(ctx).add(shown.id);
    const account = ctx.traffic.tryOns.get(shown.id)?.accountId ?? ctx.traffic.accountOf(keyOf(req));
    if (account !== undefined) await ctx.adjustCredits(account, delta);
    return res;
  };
}

export const creditsMutants: readonly Mutation[] = [
  {
    name: 'no-refund-on-failure',
    family: 'credits',
    breaks: ['SVC-FAILED-TRYON-REFUNDED'],
    does: 'a try-on that ends failed keeps its credit (the refund is taken back when the failure is first shown)',
    response: oncePerTryOn('failed', -1),
  },
  {
    name: 'success-costs-two-credits',
    family: 'credits',
    breaks: ['SVC-ONE-CREDIT-PER-FINISHED-TRYON'],
    does: 'a try-on that ends success costs 2 credits (one more is taken when the success is first shown)',
    response: oncePerTryOn('success', -1),
  },
  {
    name: 'refused-start-charged',
    family: 'credits',
    breaks: ['STATE-CREATE-STARTS-PENDING'],
    does: 'a create refused with 400, 403 or 422 still takes a credit',
    response: async (res, req, ctx) => {
      const account = ctx.traffic.accountOf(keyOf(req));
      if (isCreate(req) && [400, 403, 422].includes(res.status) && account !== undefined)
        await ctx.adjustCredits(account, -1);
      return res;
    },
  },
  {
    name: 'start-failed-charged',
    family: 'credits',
    breaks: ['STATE-NOT-STARTED-NO-CREDIT-NO-STATE'],
    does: 'a 502 START_FAILED takes a credit',
    response: async (res, req, ctx) => {
      const account = ctx.traffic.accountOf(keyOf(req));
      if (isCreate(req) && res.status === 502 && codeOf(res) === 'START_FAILED' && account !== undefined)
        await ctx.adjustCredits(account, -1);
      return res;
    },
  },
  {
    name: 'free-credits-on-every-key',
    family: 'credits',
    breaks: ['ACCOUNT-FREE-CREDITS-ONCE'],
    does: 'every new key of an account adds 20 free credits, not only the first',
    response: async (res, req, ctx) => {
      const accountId = /^\/_control\/accounts\/([^/]+)\/rotate-key$/.exec(req.path)?.[1];
      if (req.method === 'POST' && accountId !== undefined && res.status === 200) {
        // The key is new only once the answer is out; the balance is read with it.
        const apiKey = json(res)?.apiKey;
        if (typeof apiKey === 'string') {
          const read = await ctx.upstream({
            method: 'GET',
            path: '/api/v1/account',
            headers: { authorization: `Bearer ${apiKey}` },
            body: Buffer.alloc(0),
          });
          const credits = json(read)?.credits;
          if (typeof credits === 'number')
            await ctx.control('PUT', `/accounts/${accountId}/credits`, { credits: credits + 20 });
        }
      }
      return res;
    },
  },
  {
    name: 'upload-costs-a-credit',
    family: 'credits',
    breaks: ['UPLOAD-FREE'],
    does: 'a successful upload takes a credit',
    response: async (res, req, ctx) => {
      const account = ctx.traffic.accountOf(keyOf(req));
      if (isUpload(req) && res.status === 200 && account !== undefined) await ctx.adjustCredits(account, -1);
      return res;
    },
  },
];
