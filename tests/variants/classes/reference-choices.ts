/**
 * Variants that choose otherwise than our reference server where the spec says "not shown" or
 * leaves room (issue 11, "Our own reference choices"): the shape of GET /account, the AI label's
 * metadata format, keys bound by refused starts, a wrong-type consent, ordinary generations that
 * sometimes fail, and how long keys are kept.
 */
import { rebuildJpeg, encodeJpegSegment, isJpeg, jpegMarker } from '../../../src/fixtures/jpeg-segments.ts';
import { encodePngText, isPng, readPngText, rebuildPng } from '../../../src/fixtures/png-chunks.ts';
import {
  apiError,
  codeOf,
  createBodyOf,
  isCreate,
  isResult,
  json,
  keyOf,
  perProxy,
  readId,
  withJson,
} from '../../mutants/helpers.ts';
import type { MutantContext, ProxiedRequest, ProxiedResponse } from '../../mutants/mutating-proxy.ts';
import { bucketOf, edgeLimits } from '../edge-limits.ts';
import { CommittedRollingWindow } from '../fixed-window.ts';
import type { Variant } from '../variant.ts';

const accountRule =
  'GET /account: "Path parameters, headers, response body shape, errors and limits of this endpoint: not shown." Account credits: "Account record fields: not shown."';
const isAccountRead = (req: ProxiedRequest): boolean =>
  req.method === 'GET' && req.path.split('?')[0] === '/api/v1/account';

const aiText =
  'Made with AI (IPTC DigitalSourceType http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia)';
const xmpJpegHeader = 'http://ns.adobe.com/xap/1.0/\0';

/** The image with its XMP packet replaced by a plain-text label (PNG tEXt `AI-Label`, JPEG COM segment). */
export function relabel(bytes: Buffer): Buffer {
  if (isPng(bytes))
    return rebuildPng(
      bytes,
      [encodePngText('AI-Label', aiText)],
      (chunk) => readPngText(chunk, () => false)?.keyword === 'XML:com.adobe.xmp',
    );
  if (isJpeg(bytes)) {
    return rebuildJpeg(
      bytes,
      [encodeJpegSegment(jpegMarker.COM, Buffer.from(`AI-Label: ${aiText}`, 'latin1'))],
      (s) => s.marker === jpegMarker.APP1 && s.payload.toString('latin1', 0, xmpJpegHeader.length) === xmpJpegHeader,
    );
  }
  return bytes;
}

/** Canonical form of a create body, for "the same body". */
function fingerprint(req: ProxiedRequest): string {
  const body = createBodyOf(req);
  if (!body) return `raw:${req.headers['content-type'] ?? ''}:${req.body.toString('base64')}`;
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `json:${JSON.stringify(sorted(body))}`;
}

interface Bound {
  readonly fingerprint: string;
  readonly answer: ProxiedResponse;
}
const bound = perProxy(() => new Map<string, Bound>());
const boundKey = (req: ProxiedRequest): string => `${keyOf(req) ?? ''}\0${req.headers['idempotency-key'] ?? ''}`;
const validKey = (req: ProxiedRequest): boolean => /^[A-Za-z0-9_-]{8,128}$/.test(req.headers['idempotency-key'] ?? '');

/** Try-ons that end failed instead of success (every fifth started), and their refunds in progress. */
const doomed = perProxy(() => ({
  started: 0,
  ids: new Map<string, { accountId: string | undefined; refund?: Promise<unknown> }>(),
}));
const failedMessage = 'The try-on could not be made this time; your credit has been returned.';

/** Shows a doomed try-on as failed, after its credit is back (once). */
async function showFailed(res: ProxiedResponse, id: string, ctx: MutantContext): Promise<ProxiedResponse> {
  const entry = doomed(ctx).ids.get(id)!;
  entry.refund ??= entry.accountId === undefined ? Promise.resolve() : ctx.adjustCredits(entry.accountId, +1);
  await entry.refund;
  return withJson(res, { id, status: 'failed', resultUrl: null, message: failedMessage });
}

export const referenceVariants: readonly Variant[] = [
  {
    name: 'account-balance-field',
    class: 'reference-choices',
    allowedBy: accountRule,
    does: 'GET /account answers {"balance": n} (the reference: {"credits": n})',
    response: (res, req) =>
      isAccountRead(req) && res.status === 200 && typeof json(res)?.credits === 'number'
        ? withJson(res, { balance: json(res).credits })
        : res,
  },
  {
    name: 'account-nested-credits',
    class: 'reference-choices',
    allowedBy: accountRule,
    does: 'GET /account answers {"account": {"id": …, "credits": n}}',
    response: (res, req, ctx) =>
      isAccountRead(req) && res.status === 200 && typeof json(res)?.credits === 'number'
        ? withJson(res, { account: { id: ctx.traffic.accountOf(keyOf(req)) ?? 'acct', credits: json(res).credits } })
        : res,
  },
  {
    name: 'account-balance-among-other-numbers',
    class: 'reference-choices',
    allowedBy: accountRule,
    does: 'GET /account answers {"credits": {"remaining": n, "granted": 20}, "plan": {"startsPerMinute": 12}}: no field is the balance by its shape alone, so the run is told where it is (--balance-path credits.remaining)',
    response: (res, req) =>
      isAccountRead(req) && res.status === 200 && typeof json(res)?.credits === 'number'
        ? withJson(res, {
            credits: { remaining: json(res).credits, granted: 20 },
            plan: { name: 'api', startsPerMinute: 12 },
          })
        : res,
    config: (config) => ({ ...config, balancePath: 'credits.remaining' }),
  },
  {
    name: 'ai-label-in-text-metadata',
    class: 'reference-choices',
    allowedBy:
      'What the service does: "Every result image carries a machine-readable label in its metadata saying it was made with AI." The spec names no metadata format (the reference writes XMP Iptc4xmpExt:DigitalSourceType).',
    does: `result images carry no XMP; the label is a PNG tEXt chunk "AI-Label" (JPEG: a COM segment) reading "${aiText}"`,
    response: (res, req) =>
      isResult(req) && req.method === 'GET' && res.status === 200 ? { ...res, body: relabel(res.body) } : res,
  },
  {
    name: 'every-fifth-generation-fails',
    class: 'reference-choices',
    allowedBy:
      'States and transitions: "`pending` | generation cannot finish (for example the result fails safety checks) | any failure while the image is made | `failed` | credit refunded automatically; `message` explains". Nothing promises that an ordinary try-on succeeds.',
    does: 'every fifth try-on started ends failed (credit refunded, with a message) instead of success',
    response: async (res, req, ctx) => {
      const body = json(res);
      const id: string | undefined = isCreate(req) ? (typeof body?.id === 'string' ? body.id : undefined) : readId(req);
      if (id === undefined || (res.status !== 200 && res.status !== 202)) return res;
      const state = doomed(ctx);
      if (isCreate(req) && !ctx.traffic.tryOns.has(id) && !state.ids.has(id)) {
        state.started += 1;
        if (state.started % 5 === 0) state.ids.set(id, { accountId: ctx.traffic.accountOf(keyOf(req)) });
      }
      if (!state.ids.has(id) || body?.status !== 'success') return res;
      return showFailed(res, id, ctx);
    },
  },
  {
    name: 'key-bound-by-refused-start',
    class: 'reference-choices',
    allowedBy:
      'POST /tryons, rule 4: "Idempotency: how long keys are kept, and what happens when a key is reused with a different body: not shown." Errors, rule 2: "Retry with the same Idempotency-Key on 429, 500, 502, 503" (a retry is the same request) and rule 3: "Do not retry 400, 401, 402, 403, 413 or 422 unchanged."',
    does: 'a key is bound to its body by the first start that reaches the body checks, even a refused one (except 402): a different body with it gets 422 IDEMPOTENCY_KEY_REUSED, the same body gets the stored 4xx again (a 5xx is processed afresh)',
    request: (req, ctx) => {
      if (!isCreate(req) || !validKey(req) || !ctx.traffic.isLive(keyOf(req))) return req;
      const seen = bound(ctx).get(boundKey(req));
      if (!seen) return req;
      if (seen.fingerprint !== fingerprint(req))
        return apiError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request body.');
      return seen.answer.status < 500 ? seen.answer : req;
    },
    response: (res, req, ctx) => {
      if (!isCreate(req) || !validKey(req) || !ctx.traffic.isLive(keyOf(req)) || bound(ctx).has(boundKey(req)))
        return res;
      // 402 is the account's state, not the request's: topping up and sending the same request again is a retry.
      const refused =
        res.status >= 400 &&
        ![401, 402, 409, 429].includes(res.status) &&
        !['MISSING_IDEMPOTENCY_KEY', 'IDEMPOTENCY_KEY_REUSED'].includes(codeOf(res) ?? '');
      if (refused) bound(ctx).set(boundKey(req), { fingerprint: fingerprint(req), answer: res });
      return res;
    },
  },
  {
    name: 'consent-wrong-type-400',
    class: 'reference-choices',
    allowedBy:
      'POST /tryons, request body: "consent | boolean | yes | must be `true`"; Errors: "403 | CONSENT_REQUIRED | `consent` was not `true`". A consent that is not a boolean breaks the field\'s type before its value; Errors, rule 5 leaves the code for a malformed body "not shown", and the issue names "which answer a wrong-type `consent` gets" a reference choice.',
    does: 'a consent that is present but not a boolean ("true", 1, null, {}) gets 400 INVALID_REQUEST; false or missing still gets 403 CONSENT_REQUIRED',
    request: (req, ctx) => {
      if (
        !isCreate(req) ||
        !ctx.traffic.isLive(keyOf(req)) ||
        !validKey(req) ||
        !/^application\/json\b/i.test(req.headers['content-type'] ?? '')
      )
        return req;
      const body = createBodyOf(req);
      return body && 'consent' in body && typeof body.consent !== 'boolean'
        ? apiError(400, 'INVALID_REQUEST', 'consent must be a boolean.')
        : req;
    },
  },
  {
    name: 'idempotency-keys-kept-one-hour',
    class: 'reference-choices',
    allowedBy:
      'POST /tryons, rule 4: "Idempotency: how long keys are kept, and what happens when a key is reused with a different body: not shown."',
    does: 'an Idempotency-Key is kept 1 hour after its try-on (the reference: 24 hours); after that the same key starts a new try-on',
    settings: { idempotencyRetentionMs: 3_600_000 },
  },
];

const isAccountPath = (req: ProxiedRequest): boolean =>
  req.method === 'GET' && req.path.split('?')[0] === '/api/v1/account';
const pollWindows = perProxy(() => new CommittedRollingWindow());

/** In-flight creates per API key and Idempotency-Key: a repeat waits for the one before it. */
const inFlight = perProxy(() => new Map<string, Promise<void>>());
const releases = new WeakMap<ProxiedRequest, () => void>();

export const moreReferenceVariants: readonly Variant[] = [
  {
    name: 'account-reads-share-the-polls-limit',
    class: 'reference-choices',
    allowedBy:
      'GET /account: "Path parameters, headers, response body shape, errors and limits of this endpoint: not shown."',
    does: "GET /account counts against the account's 60-a-minute polling window (rolling), and answers 429 RATE_LIMITED with Retry-After over it",
    ...edgeLimits(
      ['polls'],
      {
        before: ({ ctx, accountId, limit }) => {
          const admission = pollWindows(ctx).reserve(accountId, limit, ctx.traffic.now());
          if (!admission.admitted) return admission.retryAfterSeconds;
          pollWindows(ctx).commit(accountId, ctx.traffic.now());
          return undefined;
        },
      },
      (req) => (isAccountPath(req) ? 'polls' : bucketOf(req)),
    ),
  },
  {
    name: 'concurrent-repeat-waits-for-the-first',
    class: 'reference-choices',
    allowedBy:
      'POST /tryons, rule 3: "Reusing an Idempotency-Key returns the earlier try-on instead of starting or charging again." The reference\'s 409 IDEMPOTENCY_KEY_IN_USE for a repeat that arrives while the first request is still creating is its own choice (openapi.yaml x-point idempotency-in-flight).',
    does: 'a create whose Idempotency-Key is in flight waits for the first request to finish, then gets its replay: never 409 IDEMPOTENCY_KEY_IN_USE',
    request: async (req, ctx) => {
      if (!isCreate(req) || !validKey(req)) return req;
      const k = boundKey(req);
      const before = inFlight(ctx).get(k) ?? Promise.resolve();
      let release = (): void => {};
      const mine = new Promise<void>((resolve) => (release = resolve));
      inFlight(ctx).set(
        k,
        before.then(() => mine),
      );
      // Bounded, so a lost answer cannot hold the key for ever.
      await Promise.race([before, new Promise((resolve) => setTimeout(resolve, 60_000))]);
      const forwarded = { ...req };
      releases.set(forwarded, release);
      return forwarded;
    },
    response: (res, req) => {
      releases.get(req)?.();
      return res;
    },
  },
];
