/**
 * Variants that check uploads less strictly where the spec allows (issue 11, "Upload strictness"):
 * the upload errors are "not JPEG or PNG" and "larger than 4 MB"; an image that has the right
 * format but cannot be used may be refused when a try-on is started (422 IMAGE_REJECTED).
 */
import { randomBytes } from 'node:crypto';
import { apiError, createBodyOf, isCreate, isUpload, keyOf, perProxy, withBody } from '../../mutants/helpers.ts';
import type { ProxiedRequest } from '../../mutants/mutating-proxy.ts';
import { filePart } from '../multipart.ts';
import type { Variant } from '../variant.ts';

const day = 24 * 3_600_000;

interface Accepted {
  readonly accountId: string;
  readonly at: number;
}

/** Damaged images this proxy took at upload: their ids, owners and upload times (server clock). */
const accepted = perProxy(() => new Map<string, Accepted>());

const looksLikeJpegOrPng = (b: Buffer): boolean =>
  (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) ||
  b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

const imageFields = ['personImageId', 'garmentImageId'] as const;
const validTitle = (title: unknown): boolean =>
  title === undefined || (typeof title === 'string' && [...title].length <= 120);
const oneSource = (body: Record<string, unknown>, image: string): boolean =>
  (body[`${image}ImageUrl`] !== undefined ? 1 : 0) + (body[`${image}ImageId`] !== undefined ? 1 : 0) === 1;

export const uploadVariants: readonly Variant[] = [
  {
    name: 'damaged-image-accepted-at-upload',
    class: 'upload-strictness',
    allowedBy:
      'POST /images: "Errors: 400 UNSUPPORTED_IMAGE; … 413 IMAGE_TOO_LARGE" with Errors: "UNSUPPORTED_IMAGE | not JPEG or PNG" and "IMAGE_REJECTED | image cannot be used for a try-on". A file that starts as a JPEG or PNG but does not decode is refused when a try-on is started.',
    does: 'an upload whose bytes start like a JPEG or PNG but do not decode (the reference: a 4xx at upload) gets 200 with an img_ id; a start with that id gets 422 IMAGE_REJECTED',
    response: (res, req, ctx) => {
      if (
        !isUpload(req) ||
        res.status < 400 ||
        [401, 413, 415, 429].includes(res.status) ||
        !ctx.traffic.isLive(keyOf(req))
      )
        return res;
      const file = filePart(req);
      if (!file || !looksLikeJpegOrPng(file)) return res;
      const id = `img_${randomBytes(12).toString('base64url')}`;
      const at = ctx.traffic.now();
      accepted(ctx).set(id, { accountId: ctx.traffic.accountOf(keyOf(req)) as string, at });
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: Buffer.from(JSON.stringify({ id, expiresAt: new Date(at + day).toISOString() })),
      };
    },
    request: (req: ProxiedRequest, ctx) => {
      if (!isCreate(req)) return req;
      const body = createBodyOf(req);
      const ids = imageFields
        .map((f) => body?.[f])
        .filter((v): v is string => typeof v === 'string' && accepted(ctx).has(v));
      if (!body || ids.length === 0) return req;
      const account = ctx.traffic.accountOf(keyOf(req));
      const usable = ids.every((id) => {
        const a = accepted(ctx).get(id)!;
        return a.accountId === account && ctx.traffic.now() < a.at + day;
      });
      const otherwiseValid =
        ctx.traffic.isLive(keyOf(req)) &&
        /^application\/json\b/i.test(req.headers['content-type'] ?? '') &&
        /^[A-Za-z0-9_-]{8,128}$/.test(req.headers['idempotency-key'] ?? '') &&
        oneSource(body, 'person') &&
        oneSource(body, 'garment') &&
        validTitle(body.title) &&
        body.consent === true;
      if (usable && otherwiseValid) return apiError(422, 'IMAGE_REJECTED', 'This image cannot be used for a try-on.');
      // Everything else is the reference's to answer; to it these ids are unknown.
      const swapped = { ...body };
      for (const f of imageFields)
        if (typeof body[f] === 'string' && accepted(ctx).has(body[f] as string))
          swapped[f] = 'img_unknownDamagedUpload';
      return withBody(req, swapped);
    },
  },
];
