/**
 * Taking rate-limit buckets over from the reference server, for variants that count differently
 * (fixed windows, only real starts): the proxy raises those buckets on the real server for every
 * account test control creates (and whenever the suite sets limits), answers test control with
 * the limits the suite asked for, and enforces the buckets itself with a `Gate`.
 */
import { apiError, isCreate, isUpload, json, jsonOf, keyOf, readId, withJson } from '../mutants/helpers.ts';
import type { MutantContext, ProxiedRequest, ProxiedResponse, ProxyHooks } from '../mutants/mutating-proxy.ts';
import type { Limits } from '../mutants/traffic.ts';

export type Bucket = 'starts' | 'polls' | 'uploads';
const field: Record<Bucket, keyof Limits> = {
  starts: 'startsPerMinute',
  polls: 'pollsPerMinute',
  uploads: 'uploadsPerMinute',
};
/** What the real server's limit of a taken-over bucket is raised to. */
const unlimited = 1_000_000_000;

export const bucketOf = (req: ProxiedRequest): Bucket | undefined =>
  isCreate(req) ? 'starts' : readId(req) !== undefined ? 'polls' : isUpload(req) ? 'uploads' : undefined;

/** One request of a live key against one bucket, with the limit the suite asked for. */
export interface Gated {
  readonly ctx: MutantContext;
  readonly accountId: string;
  readonly bucket: Bucket;
  readonly limit: number;
  readonly req: ProxiedRequest;
}

export interface Gate {
  /** Before forwarding: undefined lets the request through; a number refuses it with that Retry-After. */
  before(g: Gated): number | undefined;
  /** After the real server answered a request that was let through. */
  after?(g: Gated, res: ProxiedResponse): void;
}

/** 429 RATE_LIMITED with Retry-After, as the reference words it. */
export const rateLimited = (bucket: Bucket, seconds: number): ProxiedResponse =>
  apiError(429, 'RATE_LIMITED', `Too many ${bucket}; retry after ${seconds} seconds.`, {
    'retry-after': String(seconds),
  });

/** Hooks that take `buckets` over and enforce them with `gate`. */
export function edgeLimits(
  buckets: readonly Bucket[],
  gate: Gate,
  classify: (req: ProxiedRequest) => Bucket | undefined = bucketOf,
): ProxyHooks {
  const raised = Object.fromEntries(buckets.map((b) => [field[b], unlimited]));
  const gatedOf = (req: ProxiedRequest, ctx: MutantContext): Gated | undefined => {
    const bucket = classify(req);
    const key = keyOf(req);
    if (bucket === undefined || !buckets.includes(bucket) || !ctx.traffic.isLive(key)) return undefined;
    const accountId = ctx.traffic.accountOf(key) as string;
    return { ctx, accountId, bucket, limit: ctx.traffic.limitsOf(accountId)[field[bucket]], req };
  };
  // The limits each PUT asked for (the traffic records them only after the answer has gone out).
  const askedOf = new WeakMap<ProxiedRequest, Record<string, unknown>>();
  return {
    request: (req, ctx) => {
      if (req.method === 'PUT' && /^\/_control\/accounts\/[^/]+\/limits$/.test(req.path)) {
        // The traffic records the suite's values from the original request; the real server gets "unlimited".
        const asked = jsonOf(req.body) ?? {};
        const over = Object.fromEntries(
          Object.keys(raised)
            .filter((k) => typeof asked[k] === 'number')
            .map((k) => [k, unlimited]),
        );
        const rewritten = { ...req, body: Buffer.from(JSON.stringify({ ...asked, ...over })) };
        askedOf.set(rewritten, asked);
        return rewritten;
      }
      const gated = gatedOf(req, ctx);
      if (!gated) return req;
      const refused = gate.before(gated);
      return refused === undefined ? req : rateLimited(gated.bucket, refused);
    },
    response: async (res, req, ctx) => {
      if (req.method === 'POST' && req.path === '/_control/accounts' && res.status === 200) {
        const accountId = json(res)?.accountId;
        if (typeof accountId === 'string') await ctx.control('PUT', `/accounts/${accountId}/limits`, raised);
      }
      if (req.method === 'PUT' && /^\/_control\/accounts\/[^/]+\/limits$/.test(req.path) && res.status === 200) {
        const body = json(res);
        const accountId = body?.accountId;
        if (typeof accountId === 'string' && body.limits) {
          const asked: Record<string, unknown> = { ...ctx.traffic.limitsOf(accountId), ...askedOf.get(req) };
          return withJson(res, {
            ...body,
            limits: { ...body.limits, ...Object.fromEntries(Object.keys(raised).map((k) => [k, asked[k]])) },
          });
        }
      }
      const gated = gatedOf(req, ctx);
      if (gated) gate.after?.(gated, res);
      return res;
    },
  };
}
