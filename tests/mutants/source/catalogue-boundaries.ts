/**
 * Source mutants at the boundaries of counted quantities and on one half of a pair: realistic bugs in
 * the reference server that a suite judging only a balance of 0, only the person image, only POST /tryons
 * or only small fetched files lets pass.
 */
import type { SourceMutant } from './source-mutant.ts';

const store = 'src/server/store/sqlite-store.ts';
const starts = 'src/server/domain/tryon-starts.ts';
const routes = 'src/server/routes/tryons.ts';
const fetcher = 'src/server/domain/image-fetch/image-fetcher.ts';

/** The first line of the sync route's handler, where the sync-only mutants add their own check. */
const syncHandler = "  app.post('/api/v1/tryons/sync', { onRequest: starts }, (request, reply) => {\n";

export const boundaryMutants: readonly SourceMutant[] = [
  {
    name: 'last-credit-refused',
    file: store,
    family: 'credits',
    breaks: ['ERR-INSUFFICIENT-CREDITS'],
    does: 'the credit check is off by one (`balance <= 1`): a start at a balance of exactly 1 gets 402 INSUFFICIENT_CREDITS',
    edits: [
      { find: 'if (balance(accountId) < 1) return false;', replace: 'if (balance(accountId) <= 1) return false;' },
    ],
  },
  {
    name: 'foreign-garment-id-usable',
    file: starts,
    family: 'auth',
    class: 'scoping',
    breaks: ['AUTH-FOREIGN-IMAGE-ID-INVALID'],
    does: "an image id's account is compared for the person image only (garments taken for shared catalogue images): another account's upload is used as the garment",
    edits: [
      {
        find: 'if (!image || image.accountId !== accountId || image.expiresAt',
        replace: "if (!image || (who === 'person' && image.accountId !== accountId) || image.expiresAt",
      },
      {
        find: 'if (!image?.bytes || image.accountId !== accountId) throw',
        replace: "if (!image?.bytes || (who === 'person' && image.accountId !== accountId)) throw",
      },
    ],
  },
  {
    name: 'garment-id-never-expires',
    file: starts,
    family: 'validation',
    breaks: ['RES-IMAGE-ID-INVALID-AFTER-EXPIRY'],
    does: 'the 24-hour lifetime of an uploaded id is checked for the person image only: an expired garment id is still used',
    edits: [
      {
        find: ' || image.expiresAt <= deps.clock.now() ||',
        replace: " || (who === 'person' && image.expiresAt <= deps.clock.now()) ||",
      },
    ],
  },
  {
    name: 'unknown-garment-id-crashes',
    file: starts,
    family: 'codes',
    breaks: ['ERR-INVALID-IMAGE-ID'],
    does: 'an unknown id is caught for the person image only: an unknown garment id throws a TypeError, answered 500 INTERNAL_ERROR',
    edits: [
      {
        find: 'if (!image || image.accountId !== accountId || image.expiresAt',
        replace: "if ((who === 'person' && !image) || image.accountId !== accountId || image.expiresAt",
      },
    ],
  },
  {
    name: 'fetched-size-counted-as-base64',
    file: fetcher,
    family: 'validation',
    breaks: ['RES-IMAGE-UP-TO-4MB-ACCEPTED'],
    does: 'a fetched image is measured as the base64 text handed on to the engine (4/3 of its bytes): an image URL of more than 3 MiB gets 413 IMAGE_TOO_LARGE',
    edits: [
      { find: 'if (declared > maxBytes) {', replace: 'if (Math.ceil(declared / 3) * 4 > maxBytes) {' },
      { find: 'if (received > maxBytes) {', replace: 'if (Math.ceil(received / 3) * 4 > maxBytes) {' },
    ],
  },
  {
    name: 'sync-title-of-120-refused',
    file: routes,
    family: 'validation',
    breaks: ['CREATE-TITLE-OPTIONAL-UP-TO-120'],
    does: 'POST /tryons/sync checks the title again before it holds the request, off by one (`>= 120`): a title of exactly 120 characters is refused there',
    edits: [
      {
        find: syncHandler,
        replace: `${syncHandler}    const title = (request.body as { title?: unknown } | null)?.title;\n    if (typeof title === 'string' && title.length >= 120)\n      return void reply.send(new ApiError('INVALID_REQUEST', 'title may be at most 120 characters.'));\n`,
      },
    ],
  },
  {
    name: 'sync-long-title-cut',
    file: routes,
    family: 'validation',
    breaks: ['ERR-TITLE-TOO-LONG-IMPL-DEFINED'],
    does: 'POST /tryons/sync cuts a title to 120 characters to fit the engine, instead of refusing it: a title over 120 characters starts a try-on there',
    edits: [
      {
        find: syncHandler,
        replace: `${syncHandler}    const held = request.body as { title?: unknown } | null;\n    if (typeof held?.title === 'string') held.title = held.title.slice(0, 120);\n`,
      },
    ],
  },
  {
    name: 'sync-key-of-128-refused',
    file: routes,
    family: 'validation',
    breaks: ['CREATE-IDEMPOTENCY-KEY-FORMAT'],
    does: 'POST /tryons/sync checks the Idempotency-Key length again, off by one (`>= 128`): a key of 128 characters is refused there with 400 MISSING_IDEMPOTENCY_KEY',
    edits: [
      {
        find: syncHandler,
        replace: `${syncHandler}    const key = request.headers['idempotency-key'];\n    if (typeof key === 'string' && key.length >= 128) return void reply.send(new ApiError('MISSING_IDEMPOTENCY_KEY'));\n`,
      },
    ],
  },
];
