/**
 * Variants that count and order differently where the spec is loose (issue 11, "Counting and
 * order"): how a MB and "120 characters" are counted, which check comes first, which requests
 * count as starts, and whether GET /tryons/sync is the literal path or the template.
 */
import { apiError, createBodyOf, isApi, isCreate, keyOf, pathOf, perProxy } from '../../mutants/helpers.ts';
import type { ProxiedRequest } from '../../mutants/mutating-proxy.ts';
import { edgeLimits } from '../edge-limits.ts';
import { CommittedRollingWindow } from '../fixed-window.ts';
import type { Variant } from '../variant.ts';

const titleRule =
  'POST /tryons, request body: "title | string | no | product name, up to 120 characters"; Limits: "`title` | up to 120 characters". The spec does not say what a character is (UTF-16 unit, code point, grapheme).';
const orderRule =
  'The spec lists the checks of POST /tryons (Errors: "400 MISSING_IDEMPOTENCY_KEY, …; 401 INVALID_API_KEY; 402 INSUFFICIENT_CREDITS; 403 CONSENT_REQUIRED; …") but never their order: a request that breaks two rules may get either answer.';

const isJson = (req: ProxiedRequest): boolean => /^application\/json\b/i.test(req.headers['content-type'] ?? '');
const validIdempotencyKey = (req: ProxiedRequest): boolean =>
  /^[A-Za-z0-9_-]{8,128}$/.test(req.headers['idempotency-key'] ?? '');
const graphemes = (s: string): number => [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(s)].length;

const starts = perProxy(() => new CommittedRollingWindow());

export const countingVariants: readonly Variant[] = [
  {
    name: 'four-mb-is-4000000-bytes',
    class: 'counting-and-order',
    allowedBy:
      'Image requirements: "Maximum size | 4 MB per image"; Errors: "413 | IMAGE_TOO_LARGE | image larger than 4 MB". A MB is 1,000,000 bytes in SI units; the spec does not say 4 MiB.',
    does: 'images over 4,000,000 bytes get 413 IMAGE_TOO_LARGE (the reference: over 4,194,304)',
    settings: { maxImageBytes: 4_000_000 },
  },
  {
    name: 'title-counted-in-utf16-units',
    class: 'counting-and-order',
    allowedBy: titleRule,
    does: 'a title longer than 120 UTF-16 code units gets 400 INVALID_REQUEST, so 120 astral emoji (240 units) are refused (the reference counts code points)',
    request: (req, ctx) => {
      if (!isCreate(req) || !ctx.traffic.isLive(keyOf(req)) || !isJson(req) || !validIdempotencyKey(req)) return req;
      const title = createBodyOf(req)?.title;
      return typeof title === 'string' && title.length > 120
        ? apiError(400, 'INVALID_REQUEST', 'title is longer than 120 characters.')
        : req;
    },
  },
  {
    name: 'title-counted-in-graphemes',
    class: 'counting-and-order',
    allowedBy: titleRule,
    does: 'a title is counted in grapheme clusters (what a reader sees as characters): 121 code points with a combining accent are 120 characters and accepted',
    request: (req) => {
      const body = isCreate(req) && isJson(req) ? createBodyOf(req) : undefined;
      const title = body?.title;
      if (typeof title !== 'string' || [...title].length <= 120 || graphemes(title) > 120) return req;
      // The engine behind gets the title cut to what the reference takes; the client sees it accepted.
      return { ...req, body: Buffer.from(JSON.stringify({ ...body, title: [...title].slice(0, 120).join('') })) };
    },
  },
  {
    name: 'consent-checked-first',
    class: 'counting-and-order',
    allowedBy: orderRule,
    does: 'right after the API key, a JSON body whose consent is not true gets 403 CONSENT_REQUIRED before the Idempotency-Key, the sources or the title are looked at',
    request: (req, ctx) => {
      if (!isCreate(req) || !ctx.traffic.isLive(keyOf(req)) || !isJson(req)) return req;
      const body = createBodyOf(req);
      return body && body.consent !== true ? apiError(403, 'CONSENT_REQUIRED', 'consent must be true.') : req;
    },
  },
  {
    name: 'idempotency-key-checked-before-auth',
    class: 'counting-and-order',
    allowedBy: `${orderRule} Authentication 4: "A missing, malformed or revoked key gives 401" and the Idempotency-Key row "8-128 characters" both apply to a request that breaks both.`,
    does: 'a create without a valid Idempotency-Key gets 400 MISSING_IDEMPOTENCY_KEY before anything else, even before the API key is checked',
    request: (req) =>
      isCreate(req) && !validIdempotencyKey(req)
        ? apiError(400, 'MISSING_IDEMPOTENCY_KEY', 'Idempotency-Key must be 8-128 letters, digits, _ or -.')
        : req,
  },
  {
    name: 'credits-checked-first',
    class: 'counting-and-order',
    allowedBy: `${orderRule} Rule 3 ("Reusing an Idempotency-Key returns the earlier try-on instead of starting or charging again") is kept: a replay is answered at any balance.`,
    does: 'right after the API key, a create at a balance of 0 gets 402 INSUFFICIENT_CREDITS before the body is looked at (unless its Idempotency-Key replays an earlier try-on)',
    request: async (req, ctx) => {
      const key = keyOf(req);
      if (!isCreate(req) || !ctx.traffic.isLive(key)) return req;
      if (ctx.traffic.idempotency.has(`${key}\0${req.headers['idempotency-key'] ?? ''}`)) return req;
      const balance = await ctx.balance(ctx.traffic.accountOf(key) as string);
      return balance === 0 ? apiError(402, 'INSUFFICIENT_CREDITS', 'No credits left.') : req;
    },
  },
  {
    name: 'auth-before-routing',
    class: 'counting-and-order',
    allowedBy:
      'Endpoints: "All requests need `Authorization: Bearer <API_KEY>`."; Unknown paths and methods: "A path with no endpoint gives 404 NOT_FOUND; a method the endpoint does not accept gives 405 METHOD_NOT_ALLOWED." Which is checked first is not said.',
    does: 'a request under /api/v1 without a live key gets 401 INVALID_API_KEY even on an unknown path or method (the reference routes first: 404/405)',
    response: (res, req, ctx) =>
      isApi(req) && (res.status === 404 || res.status === 405) && !ctx.traffic.isLive(keyOf(req))
        ? apiError(401, 'INVALID_API_KEY', 'Missing or invalid API key.')
        : res,
  },
  {
    name: 'get-tryons-sync-is-an-id',
    class: 'counting-and-order',
    allowedBy:
      'Endpoints: "GET /tryons/{id}" and "POST /tryons/sync"; GET /tryons/{id}: "404 NOT_FOUND (no try-on with that id belongs to this account)". GET /tryons/sync matches the template, so "no try-on with id sync" is as right as 405.',
    does: 'GET /tryons/sync is read as GET /tryons/{id} with id "sync": 404 NOT_FOUND with a live key, 401 without (the reference: 405)',
    request: (req, ctx) => {
      if (req.method !== 'GET' || !/^\/api\/v1\/tryons\/sync\/?$/.test(pathOf(req))) return req;
      return ctx.traffic.isLive(keyOf(req))
        ? apiError(404, 'NOT_FOUND', 'No try-on with that id.')
        : apiError(401, 'INVALID_API_KEY', 'Missing or invalid API key.');
    },
  },
  {
    name: 'only-real-starts-count',
    class: 'counting-and-order',
    allowedBy:
      'POST /tryons, rule 5: "Rate limit: 12 try-on starts per minute per account, shared with `POST /tryons/sync`." A refused request, or a replay, starts no try-on, so it need not count.',
    does: 'the starts window (rolling, 60 s) counts only requests that started a new try-on; refusals and replays do not count',
    ...edgeLimits(['starts'], {
      before: ({ ctx, accountId, limit }) => {
        const admission = starts(ctx).reserve(accountId, limit, ctx.traffic.now());
        return admission.admitted ? undefined : admission.retryAfterSeconds;
      },
      after: ({ ctx, accountId }, res) => {
        const id = (() => {
          try {
            return JSON.parse(res.body.toString('utf8'))?.id as unknown;
          } catch {
            return undefined;
          }
        })();
        const started =
          (res.status === 200 || res.status === 202) && typeof id === 'string' && !ctx.traffic.tryOns.has(id);
        if (started) starts(ctx).commit(accountId, ctx.traffic.now());
        else starts(ctx).release(accountId);
      },
    }),
  },
];
