/**
 * Spec: POST /images (free; multipart form with one `file`; JPEG or PNG up to 4 MB; 200 `{id,
 * expiresAt}`); Uploaded image (`img_` id, expiresAt 24 hours after the upload); Image
 * requirements; Errors (UNSUPPORTED_IMAGE, IMAGE_TOO_LARGE). openapi.yaml x-point upload-malformed:
 * malformed uploads get a 4xx with the error envelope, never a 5xx, and the 4 MB boundary may sit
 * anywhere from 4,000,000 to 4,194,304 bytes (the suite records which).
 */
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { fourMbAsDecimal, fourMbAsMebibytes } from '../fixtures/export.ts';
import { makeBmp, makeDecompressionBomb, makeExactSize, makeGarmentImage, makeGif, makePersonPhoto, makeSvg, makeWebp } from '../fixtures/images.ts';
import { Api } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';

const statusOf = (ex: Exchange): number | string | undefined => ex.response?.status ?? ex.error;
const codeOf = (ex: Exchange): unknown => (ex.response?.json as { code?: unknown } | undefined)?.code;
const answerOf = (ex: Exchange): string => `${statusOf(ex)} ${String(codeOf(ex))}`;

/** A refusal x-conformance accepts for a malformed upload: a client error other than rate limiting, with the envelope. */
function isRefusal(ex: Exchange): boolean {
  const status = ex.response?.status ?? 0;
  const body = ex.response?.json as { error?: unknown; code?: unknown } | undefined;
  const envelope = typeof body === 'object' && body !== null && typeof body.error === 'string' && body.error !== '' && typeof body.code === 'string';
  return status >= 400 && status < 500 && status !== 429 && envelope;
}

/** Full runs when the suite's upload limit is raised, about a minute's worth at the documented 30/minute. */
const runs = (t: ConformanceContext, raised: number, documented: number): number => (t.target.pacer.limits.uploads >= 1_000 ? raised : documented);


/** Content-Types a client might declare for the file part; the verdict must not depend on them. */
const declaredTypes = ['image/jpeg', 'image/png', 'application/octet-stream', 'image/gif', 'image/webp', 'text/plain'] as const;

const startsLikeJpegOrPng = (b: Uint8Array): boolean => (b[0] === 0xff && b[1] === 0xd8) || (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47);

const hour = 3_600_000;
const fiveMinutes = 5 * 60_000;

/**
 * When the upload happened, by the clocks that may judge expiresAt: the target's test clock (which
 * tests may have moved forward) when it has one, else its Date header and our own clock.
 */
async function uploadTimes(t: ConformanceContext, ex: Exchange, sentAt: number): Promise<number[]> {
  if (t.target.control) {
    // GET /_control/settings also gives the test clock's `now`, which ControlSettings does not type.
    const settings = (await t.target.control.settings()) as unknown as { now?: unknown };
    const now = typeof settings.now === 'string' ? Date.parse(settings.now) : Number.NaN;
    if (Number.isFinite(now)) return [now];
  }
  const date = Date.parse(ex.response?.headers.date ?? '');
  return Number.isFinite(date) ? [date, sentAt] : [sentAt];
}

describe('uploads', () => {
  conformance(
    'accepts a JPEG and a PNG with an img_ id and an expiresAt 24 hours after the upload',
    { covers: ['UPLOAD-RESPONSE-200', 'RES-IMAGE-ID-PREFIX', 'RES-IMAGE-EXPIRES-AT-24H', 'RES-IMAGE-FORMATS-JPEG-PNG', 'UPLOAD-MULTIPART-FORM-DATA', 'UPLOAD-FILE-FIELD'], uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const rows: ReadonlyArray<readonly [string, Buffer, string]> = [
        ['person.jpg', await makePersonPhoto(), 'image/jpeg'],
        ['garment.png', await makeGarmentImage({ format: 'png' }), 'image/png'],
      ];
      for (const [filename, bytes, contentType] of rows) {
        const sentAt = Date.now();
        const ex = await api.upload(t.target.primary, bytes, { filename, contentType });
        const body = ex.response?.json as { id?: unknown; expiresAt?: unknown } | undefined;
        expect({ file: filename, status: statusOf(ex), id: body?.id }).toMatchObject({ file: filename, status: 200, id: expect.stringMatching(/^img_/) });
        const expiresAt = String(body?.expiresAt);
        expect({ file: filename, expiresAt }).toEqual({ file: filename, expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i) });
        const offsets = (await uploadTimes(t, ex, sentAt)).map((at) => Date.parse(expiresAt) - (at + 24 * hour));
        expect({ file: filename, within5MinutesOf24Hours: offsets.some((d) => Math.abs(d) <= fiveMinutes), offsetsMs: offsets }).toMatchObject({ file: filename, within5MinutesOf24Hours: true });
      }
    },
  );

  conformance(
    'keeps uploads free: the balance is the same after them',
    { covers: ['UPLOAD-FREE'], uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const before = await api.credits(actor);
      expect(statusOf(await api.upload(actor, await makePersonPhoto(), { filename: 'person.jpg', contentType: 'image/jpeg' }))).toBe(200);
      expect(statusOf(await api.upload(actor, await makeGarmentImage({ format: 'png' }), { filename: 'garment.png', contentType: 'image/png' }))).toBe(200);
      expect(await api.credits(actor)).toBe(before);
    },
  );

  conformance(
    'refuses bytes that are not an image with 400 UNSUPPORTED_IMAGE, whatever Content-Type is declared',
    { covers: ['ERR-UNSUPPORTED-IMAGE', 'UPLOAD-ERROR-LIST'], uploads: 6 },
    async (t) => {
      const api = new Api(t.target);
      await t.check(
        fc.asyncProperty(
          fc.uint8Array({ minLength: 1, maxLength: 4096 }).filter((b) => !startsLikeJpegOrPng(b)),
          fc.constantFrom(...declaredTypes),
          fc.constantFrom('photo.jpg', 'photo.png', 'file', 'x.bin'),
          async (bytes, contentType, filename) => {
            const ex = await api.upload(t.target.primary, Buffer.from(bytes), { filename, contentType });
            expect({ bytes: bytes.length, contentType, answer: answerOf(ex) }).toEqual({ bytes: bytes.length, contentType, answer: '400 UNSUPPORTED_IMAGE' });
          },
        ),
        runs(t, 40, 6),
      );
    },
  );

  conformance(
    'refuses GIF, WebP, BMP and SVG with 400 UNSUPPORTED_IMAGE, whatever Content-Type is declared',
    { covers: ['ERR-UNSUPPORTED-IMAGE', 'RES-IMAGE-FORMATS-JPEG-PNG'], uploads: 12 },
    async (t) => {
      const api = new Api(t.target);
      const formats: ReadonlyArray<readonly [string, Buffer, string]> = [
        ['GIF', await makeGif(), 'image/gif'],
        ['WebP', await makeWebp(), 'image/webp'],
        ['BMP', makeBmp(), 'image/bmp'],
        ['SVG', makeSvg(), 'image/svg+xml'],
      ];
      for (const [format, bytes, own] of formats) {
        for (const contentType of [own, 'image/jpeg', 'image/png']) {
          const ex = await api.upload(t.target.primary, bytes, { filename: `image.${format.toLowerCase()}`, contentType });
          expect({ format, contentType, answer: answerOf(ex) }).toEqual({ format, contentType, answer: '400 UNSUPPORTED_IMAGE' });
        }
      }
    },
  );

  conformance(
    'refuses a JPEG or PNG cut short with a 4xx and the error envelope, never a 5xx',
    { covers: ['UPLOAD-ERROR-LIST', 'ERR-ENVELOPE-SHAPE'], uploads: 6 },
    async (t) => {
      const api = new Api(t.target);
      const images = { jpeg: await makePersonPhoto(), png: await makeGarmentImage({ format: 'png' }) };
      const answers = new Set<string>();
      // Cuts inside the first 90%: the pixel data is missing. (A PNG cut only in its final IEND
      // chunk still decodes fully, and the reference server takes it.)
      const cut = fc.constantFrom('jpeg' as const, 'png' as const).chain((format) =>
        fc.tuple(fc.constant(format), fc.integer({ min: 1, max: Math.floor(images[format].length * 0.9) })),
      );
      await t.check(
        fc.asyncProperty(cut, fc.constantFrom(...declaredTypes), async ([format, keep], contentType) => {
          const ex = await api.upload(t.target.primary, images[format].subarray(0, keep), { filename: `cut.${format === 'jpeg' ? 'jpg' : 'png'}`, contentType });
          answers.add(answerOf(ex));
          expect({ format, keep, of: images[format].length, contentType, refused: isRefusal(ex), answer: answerOf(ex) }).toMatchObject({ format, keep, refused: true });
        }),
        runs(t, 30, 6),
      );
      await t.vitest.annotate(`images cut short → ${[...answers].join(', ')}`);
    },
  );

  conformance(
    'refuses a decompression bomb (a 110 kB PNG declaring 30,000 × 30,000 pixels) with a 4xx and the error envelope',
    { covers: ['UPLOAD-ERROR-LIST', 'ERR-ENVELOPE-SHAPE'], uploads: 1 },
    async (t) => {
      const api = new Api(t.target);
      const bomb = makeDecompressionBomb();
      const started = performance.now();
      const ex = await api.upload(t.target.primary, bomb, { filename: 'bomb.png', contentType: 'image/png' });
      await t.vitest.annotate(`decompression bomb → ${answerOf(ex)} in ${Math.round(performance.now() - started)} ms`);
      expect({ refused: isRefusal(ex), answer: answerOf(ex) }).toMatchObject({ refused: true });
    },
  );

  conformance(
    'accepts 4,000,000 bytes, refuses 4,194,305 with 413 IMAGE_TOO_LARGE, and records where the 4 MB boundary sits',
    { covers: ['RES-IMAGE-UP-TO-4MB-ACCEPTED', 'ERR-IMAGE-TOO-LARGE'], uploads: 4, timeoutMs: 180_000 },
    async (t) => {
      const api = new Api(t.target);
      const upload = async (size: number) => api.upload(t.target.primary, await makeExactSize(size, 'jpeg'), { filename: `at-${size}-bytes.jpg`, contentType: 'image/jpeg' });
      expect({ bytes: fourMbAsDecimal, status: statusOf(await upload(fourMbAsDecimal)) }).toEqual({ bytes: fourMbAsDecimal, status: 200 });
      expect({ bytes: fourMbAsMebibytes + 1, answer: answerOf(await upload(fourMbAsMebibytes + 1)) }).toEqual({ bytes: fourMbAsMebibytes + 1, answer: '413 IMAGE_TOO_LARGE' });
      // Bisect-lite: 4 MiB itself, and when that is refused, one byte over 4,000,000.
      const mebibyte = answerOf(await upload(fourMbAsMebibytes));
      expect(['200 undefined', '413 IMAGE_TOO_LARGE']).toContain(mebibyte);
      if (mebibyte.startsWith('200')) {
        await t.vitest.annotate(`4 MB boundary: 4,194,304 bytes accepted, 4,194,305 refused (4 MB = 4 MiB)`);
        return;
      }
      const decimalPlusOne = answerOf(await upload(fourMbAsDecimal + 1));
      expect(['200 undefined', '413 IMAGE_TOO_LARGE']).toContain(decimalPlusOne);
      await t.vitest.annotate(
        decimalPlusOne.startsWith('413')
          ? '4 MB boundary: 4,000,000 bytes accepted, 4,000,001 refused (4 MB = 4,000,000 bytes)'
          : '4 MB boundary: between 4,000,001 (accepted) and 4,194,304 (refused)',
      );
    },
  );
});
