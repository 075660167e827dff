/**
 * Variants that give other codes and statuses where the spec names none (issue 11, "Codes and
 * statuses"): both or neither source, a malformed body, a wrong Content-Type, a key reused with a
 * different body, a result URL after its 24 hours.
 */
import {
  apiError,
  codeOf,
  createBodyOf,
  isApi,
  isCreate,
  isResult,
  isUpload,
  jsonOf,
  keyOf,
  pathOf,
  perProxy,
} from '../../mutants/helpers.ts';
import type { ProxiedRequest } from '../../mutants/mutating-proxy.ts';
import type { Variant } from '../variant.ts';

const rule5 =
  'Errors, rule 5: "Error codes for a body where both or neither source of an image is given, for a `title` over 120 characters, or for a malformed JSON body: not shown."';

/** How many of the two sources of one image a body gives. */
const sources = (body: Record<string, unknown>, image: 'person' | 'garment'): number =>
  (body[`${image}ImageUrl`] !== undefined ? 1 : 0) + (body[`${image}ImageId`] !== undefined ? 1 : 0);

const parsesToObject = (buf: Buffer): boolean => {
  const v = jsonOf(buf);
  return typeof v === 'object' && v !== null && !Array.isArray(v);
};

/** Create bodies the reference replayed or started, per API key and Idempotency-Key. */
const firstBodies = perProxy(() => new Map<string, ProxiedRequest>());
const idemOf = (req: ProxiedRequest): string => `${keyOf(req) ?? ''}\0${req.headers['idempotency-key'] ?? ''}`;

/**
 * A front-end's cap on request bodies other than uploads: well above any valid body (two image URLs,
 * a title of at most 120 characters and a boolean), below the deepest malformed bodies the suite sends.
 */
const bodyCapBytes = 8 * 1024;

/** Result paths this proxy has served with 200. */
const served = perProxy(() => new Set<string>());

export const codesVariants: readonly Variant[] = [
  {
    name: 'source-count-422-validation-error',
    class: 'codes-and-statuses',
    allowedBy: rule5,
    does: 'both or neither source of an image gets 422 VALIDATION_ERROR (the reference: 400 INVALID_REQUEST)',
    response: (res, req) => {
      if (!isCreate(req) || res.status !== 400 || codeOf(res) !== 'INVALID_REQUEST') return res;
      const body = createBodyOf(req);
      if (!body || (sources(body, 'person') === 1 && sources(body, 'garment') === 1)) return res;
      return apiError(
        422,
        'VALIDATION_ERROR',
        'Give exactly one source for the person photo and one for the garment image.',
      );
    },
  },
  {
    name: 'malformed-json-400-bad-json',
    class: 'codes-and-statuses',
    allowedBy: rule5,
    does: 'a create body that is not a JSON object gets 400 BAD_JSON (the reference: 400 INVALID_REQUEST)',
    response: (res, req) =>
      isCreate(req) && res.status === 400 && codeOf(res) === 'INVALID_REQUEST' && !parsesToObject(req.body)
        ? apiError(400, 'BAD_JSON', 'The request body is not a JSON object.')
        : res,
  },
  {
    name: 'wrong-content-type-400',
    class: 'codes-and-statuses',
    allowedBy:
      'POST /tryons, request headers: "Content-Type | yes | `application/json`"; POST /images: "`Content-Type: multipart/form-data` (required, with boundary)". Neither error list names a code for a wrong Content-Type, so which 4xx it gets is open.',
    does: 'a create that is not application/json, or an upload that is not multipart/form-data, gets 400 INVALID_REQUEST (the reference: 415 UNSUPPORTED_MEDIA_TYPE)',
    response: (res, req) =>
      (isCreate(req) || isUpload(req)) && res.status === 415
        ? apiError(400, 'INVALID_REQUEST', 'Content-Type must be application/json (multipart/form-data for uploads).')
        : res,
  },
  {
    name: 'key-reuse-409-conflict',
    class: 'codes-and-statuses',
    allowedBy:
      'POST /tryons, rule 4: "Idempotency: how long keys are kept, and what happens when a key is reused with a different body: not shown."',
    does: 'a key reused with a different body gets 409 IDEMPOTENCY_KEY_CONFLICT (the reference: 422 IDEMPOTENCY_KEY_REUSED)',
    response: (res, req) =>
      isCreate(req) && res.status === 422 && codeOf(res) === 'IDEMPOTENCY_KEY_REUSED'
        ? apiError(409, 'IDEMPOTENCY_KEY_CONFLICT', 'This Idempotency-Key was already used with another request body.')
        : res,
  },
  {
    name: 'key-reuse-replays-earlier',
    class: 'codes-and-statuses',
    allowedBy:
      'POST /tryons, rule 3: "Reusing an Idempotency-Key returns the earlier try-on instead of starting or charging again." and rule 4: "what happens when a key is reused with a different body: not shown."',
    does: 'a key reused with a different body returns the earlier try-on (the first body is replayed), never a refusal',
    response: async (res, req, ctx) => {
      if (!isCreate(req)) return res;
      const bodies = firstBodies(ctx);
      if ((res.status === 200 || res.status === 202) && !bodies.has(idemOf(req))) bodies.set(idemOf(req), req);
      if (res.status !== 422 || codeOf(res) !== 'IDEMPOTENCY_KEY_REUSED') return res;
      const first = bodies.get(idemOf(req));
      if (!first) return res;
      // The same endpoint as asked, with the body the key was first used with: the reference replays it.
      return ctx.upstream({
        ...req,
        headers: { ...req.headers, 'content-type': first.headers['content-type'] ?? 'application/json' },
        body: first.body,
      });
    },
  },
  {
    name: 'json-body-cap-413',
    class: 'codes-and-statuses',
    allowedBy:
      'Errors: "413 | IMAGE_TOO_LARGE | image larger than 4 MB": the code is owed for an image, and a body over a front-end cap holds none; rule 5: "Error codes ... for a malformed JSON body: not shown."',
    does: `a body other than an upload over ${bodyCapBytes} bytes gets 413 BODY_TOO_LARGE before it reaches the server (the reference: 64 KiB, then 400 INVALID_REQUEST)`,
    request: (req) =>
      isApi(req) && !/^multipart\//i.test(req.headers['content-type'] ?? '') && req.body.length > bodyCapBytes
        ? apiError(413, 'BODY_TOO_LARGE', `The request body is larger than ${bodyCapBytes} bytes.`)
        : req,
  },
  {
    name: 'result-gone-410',
    class: 'codes-and-statuses',
    allowedBy:
      'Try-on, resultUrl: "Public, needs no key, served from {host} under a path beginning `/i/`, valid for 24 hours." Limits: "Result URL lifetime | 24 hours". What the URL answers afterwards is not said.',
    does: 'a result URL after its 24 hours answers 410 GONE (the reference: 404 NOT_FOUND)',
    response: (res, req, ctx) => {
      if (!isResult(req)) return res;
      const path = pathOf(req);
      if (res.status === 200) served(ctx).add(path);
      if (res.status !== 404 || !served(ctx).has(path)) return res;
      return apiError(410, 'GONE', 'This result image has expired.');
    },
  },
];
