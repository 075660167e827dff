/**
 * Mutants of the limits family (spec: Limits; POST /tryons rule 5).
 *
 * Some rules cannot be broken by rewriting single answers: "the starts window is shared by both
 * create endpoints", "12, not 13", "per account". For those the proxy takes a bucket over: it
 * raises that bucket's limit on the real server for every account test control creates (and keeps
 * raising it when the suite sets limits), and enforces the bucket itself at the edge: a rolling
 * 60-second window on the server's (test) clock, with the limit the suite asked for, 429
 * RATE_LIMITED and a Retry-After computed exactly like the reference's. The mutant then changes one
 * thing about that limiter: the window key, or the limit.
 */
import type { MutantContext, Mutation, ProxiedRequest, ProxiedResponse } from '../mutating-proxy.ts';
import {
  apiError,
  isCreate,
  isSyncCreate,
  isUpload,
  json,
  jsonOf,
  keyOf,
  perProxy,
  readId,
  withJson,
} from '../helpers.ts';
import type { Limits } from '../traffic.ts';

type Bucket = 'starts' | 'polls' | 'uploads';
const field: Record<Bucket, keyof Limits> = {
  starts: 'startsPerMinute',
  polls: 'pollsPerMinute',
  uploads: 'uploadsPerMinute',
};
const windowMs = 60_000;
/** What the real server's limit of a taken-over bucket is raised to. */
const unlimited = 1_000_000_000;

const bucketOf = (req: ProxiedRequest): Bucket | undefined =>
  isCreate(req) ? 'starts' : readId(req) !== undefined ? 'polls' : isUpload(req) ? 'uploads' : undefined;

interface EdgeLimiter {
  readonly bucket: Bucket;
  /** The window a request counts in (default: one per account and bucket). */
  readonly windowOf?: (accountId: string, req: ProxiedRequest, asked: number) => string;
  /** The limit enforced, from the one the suite asked for. */
  readonly limitOf?: (asked: number) => number;
  /** Refused requests are counted in the window too (Retry-After still from the counted requests before them). */
  readonly countRefused?: boolean;
  /** Retry-After from the first request the window ever counted, however long ago, instead of the one that must leave. */
  readonly retryAfterFromFirst?: boolean;
}

const logs = perProxy(() => new Map<string, number[]>());
/** The first request each window ever counted. */
const firsts = perProxy(() => new Map<string, number>());

/** A mutation that takes `o.bucket` over from the real server and enforces it at the proxy. */
export function edgeLimited(o: EdgeLimiter): Pick<Mutation, 'request' | 'response'> {
  const name = field[o.bucket];
  return {
    request: (req, ctx) => {
      const limitsOf = /^\/_control\/accounts\/[^/]+\/limits$/.test(req.path) && req.method === 'PUT';
      if (limitsOf) {
        // The suite's value is recorded by the traffic; the real server gets "unlimited".
        const asked = jsonOf(req.body) ?? {};
        return typeof asked[name] === 'number'
          ? { ...req, body: Buffer.from(JSON.stringify({ ...asked, [name]: unlimited })) }
          : req;
      }
      const key = keyOf(req);
      if (bucketOf(req) !== o.bucket || !ctx.traffic.isLive(key)) return req;
      const accountId = ctx.traffic.accountOf(key) as string;
      const asked = ctx.traffic.limitsOf(accountId)[name];
      return (
        take(
          ctx,
          o.windowOf?.(accountId, req, asked) ?? `${accountId}\0${o.bucket}`,
          o.limitOf?.(asked) ?? asked,
          o.bucket,
          o,
        ) ?? req
      );
    },
    response: async (res, req, ctx) => {
      if (req.method === 'POST' && req.path === '/_control/accounts' && res.status === 200) {
        const accountId = json(res)?.accountId;
        if (typeof accountId === 'string')
          await ctx.control('PUT', `/accounts/${accountId}/limits`, { [name]: unlimited });
      }
      if (req.method === 'PUT' && /^\/_control\/accounts\/([^/]+)\/limits$/.test(req.path) && res.status === 200) {
        const body = json(res);
        const accountId = body?.accountId;
        if (typeof accountId === 'string' && body.limits)
          return withJson(res, { ...body, limits: { ...body.limits, [name]: ctx.traffic.limitsOf(accountId)[name] } });
      }
      return res;
    },
  };
}

/** Counts one request in `window` if it has room; otherwise the 429 the reference would give. */
function take(
  ctx: MutantContext,
  window: string,
  limit: number,
  bucket: Bucket,
  o: Pick<EdgeLimiter, 'countRefused' | 'retryAfterFromFirst'> = {},
): ProxiedResponse | undefined {
  const now = ctx.traffic.now();
  const times = (logs(ctx).get(window) ?? []).filter((t) => t > now - windowMs);
  if (!firsts(ctx).has(window)) firsts(ctx).set(window, now);
  if (times.length >= limit) {
    const oldest = o.retryAfterFromFirst ? (firsts(ctx).get(window) ?? now) : (times[times.length - limit] ?? now);
    if (o.countRefused) times.push(now);
    logs(ctx).set(window, times);
    const seconds = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
    return apiError(429, 'RATE_LIMITED', `Too many ${bucket}; retry after ${seconds} seconds.`, {
      'retry-after': String(seconds),
    });
  }
  times.push(now);
  logs(ctx).set(window, times);
  return undefined;
}

export const limitsMutants: readonly Mutation[] = [
  {
    name: 'no-retry-after',
    family: 'limits',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    does: 'a 429 has no Retry-After header',
    response: (res) => {
      if (res.status !== 429) return res;
      const { ['retry-after']: _dropped, ...headers } = res.headers;
      return { ...res, headers };
    },
  },
  {
    name: 'retry-after-always-1',
    family: 'limits',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    does: 'every 429 says Retry-After: 1, however long the window really has to run',
    response: (res) =>
      res.status === 429 && res.headers['retry-after'] !== undefined
        ? { ...res, headers: { ...res.headers, 'retry-after': '1' } }
        : res,
  },
  {
    name: 'starts-window-per-endpoint',
    family: 'limits',
    breaks: ['LIMIT-STARTS-12-PER-MINUTE'],
    does: 'POST /tryons and POST /tryons/sync each have their own window of 12 starts a minute',
    ...edgeLimited({
      bucket: 'starts',
      windowOf: (accountId, req) => `${accountId}\0starts\0${isSyncCreate(req) ? 'sync' : 'async'}`,
    }),
  },
  {
    name: 'starts-limit-13',
    family: 'limits',
    breaks: ['LIMIT-STARTS-12-PER-MINUTE'],
    does: 'the starts window lets 13 starts a minute through (one more than the account limit)',
    ...edgeLimited({ bucket: 'starts', limitOf: (asked) => asked + 1 }),
  },
  {
    name: 'polls-limit-61',
    family: 'limits',
    breaks: ['LIMIT-POLLS-60-PER-MINUTE'],
    does: 'the polls window lets 61 reads a minute through',
    ...edgeLimited({ bucket: 'polls', limitOf: (asked) => asked + 1 }),
  },
  {
    name: 'uploads-limit-31',
    family: 'limits',
    breaks: ['LIMIT-UPLOADS-30-PER-MINUTE'],
    does: 'the uploads window lets 31 uploads a minute through',
    ...edgeLimited({ bucket: 'uploads', limitOf: (asked) => asked + 1 }),
  },
  {
    name: 'starts-window-shared-by-accounts',
    family: 'limits',
    breaks: ['LIMIT-RATES-PER-ACCOUNT'],
    does: 'the starts window is keyed by the limit an account has, not by the account: accounts on the same limit share one window',
    ...edgeLimited({ bucket: 'starts', windowOf: (_accountId, _req, asked) => `limit=${asked}\0starts` }),
  },
];
