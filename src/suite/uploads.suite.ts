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
import { makeDecompressionBomb, makeExactSize, makeGarmentImage, makePersonPhoto } from '../fixtures/images.ts';
import { Api, requireBalance } from './api.ts';
import { conformance, profiledRuns, type ConformanceContext } from './conformance.ts';

const statusOf = (ex: Exchange): number | string | undefined => ex.response?.status ?? ex.error;
const codeOf = (ex: Exchange): unknown => (ex.response?.json as { code?: unknown } | undefined)?.code;
const answerOf = (ex: Exchange): string => `${statusOf(ex)} ${String(codeOf(ex))}`;

/** "Every error response is JSON of the shape `{ "error": string, "code": string }`." */
function hasEnvelope(ex: Exchange): boolean {
  const body = ex.response?.json as { error?: unknown; code?: unknown } | undefined;
  return typeof body === 'object' && body !== null && typeof body.error === 'string' && typeof body.code === 'string';
}

/**
 * A 429 or 5xx (or no answer) where the test needs a verdict on something else: the spec allows them, so
 * no verdict.
 */
function transient(t: ConformanceContext, ex: Exchange, what: string): void {
  const status = ex.response?.status;
  if (status === undefined || status === 429 || status >= 500)
    t.inconclusive(
      `${what} answered ${answerOf(ex)}: an answer the spec allows on any upload, so this case could not be judged`,
    );
}

/** Full runs when the suite's upload limit is raised, about a minute's worth at the documented 30/minute. */
const runs = (t: ConformanceContext, raised: number, documented: number): number =>
  t.target.pacer.limits.uploads >= 1_000 ? raised : documented;

/** Content-Types a client might declare for the file part; the verdict must not depend on them. */
const declaredTypes = [
  'image/jpeg',
  'image/png',
  'application/octet-stream',
  'image/gif',
  'image/webp',
  'text/plain',
] as const;

const startsLikeJpegOrPng = (b: Uint8Array): boolean =>
  (b[0] === 0xff && b[1] === 0xd8) || (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47);

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

/**
 * "ISO 8601 timestamp": the extended or the basic format, with a time; the offset may be left out (read as
 * UTC, and recorded).
 */
function parseIso8601(text: string): { at: number; offset: boolean } | undefined {
  const m = /^(\d{4})-?(\d\d)-?(\d\d)T(\d\d):?(\d\d)(?::?(\d\d)([.,]\d+)?)?(Z|[+-]\d\d(?::?\d\d)?)?$/i.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec = '00', frac = '', zone] = m;
  const offset =
    zone === undefined
      ? 'Z'
      : zone.toUpperCase() === 'Z'
        ? 'Z'
        : zone.length === 3
          ? `${zone}:00`
          : zone.replace(/^([+-]\d\d)(\d\d)$/, '$1:$2');
  const at = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec}${frac.replace(',', '.')}${offset}`);
  return Number.isFinite(at) ? { at, offset: zone !== undefined } : undefined;
}

describe('uploads', () => {
  conformance(
    'accepts a JPEG and a PNG with an img_ id and an expiresAt 24 hours after the upload',
    {
      covers: [
        'UPLOAD-RESPONSE-200',
        'RES-IMAGE-ID-PREFIX',
        'RES-IMAGE-EXPIRES-AT-24H',
        'RES-IMAGE-FORMATS-JPEG-PNG',
        'UPLOAD-MULTIPART-FORM-DATA',
        'UPLOAD-FILE-FIELD',
      ],
      uploads: 2,
    },
    async (t) => {
      const api = new Api(t.target);
      const rows: ReadonlyArray<readonly [string, Buffer, string]> = [
        ['person.jpg', await makePersonPhoto(), 'image/jpeg'],
        ['garment.png', await makeGarmentImage({ format: 'png' }), 'image/png'],
      ];
      for (const [filename, bytes, contentType] of rows) {
        const sentAt = Date.now();
        const ex = await api.upload(t.target.primary, bytes, { filename, contentType });
        transient(t, ex, `the upload of ${filename}`);
        const body = ex.response?.json as { id?: unknown; expiresAt?: unknown } | undefined;
        // Image requirements: "Formats | JPEG or PNG"; POST /images: "Response 200 body: `id` ..., `expiresAt`".
        t.must('RES-IMAGE-FORMATS-JPEG-PNG', () =>
          expect({ file: filename, status: statusOf(ex) }).toEqual({ file: filename, status: 200 }),
        );
        t.must('UPLOAD-RESPONSE-200', () =>
          expect({ file: filename, id: typeof body?.id, expiresAt: typeof body?.expiresAt }).toEqual({
            file: filename,
            id: 'string',
            expiresAt: 'string',
          }),
        );
        // id: "Begins with `img_`."
        t.must('RES-IMAGE-ID-PREFIX', () =>
          expect({ file: filename, id: body?.id }).toMatchObject({
            file: filename,
            id: expect.stringMatching(/^img_/),
          }),
        );
        // expiresAt: "ISO 8601 timestamp, 24 hours after the upload."
        const expiresAt = String(body?.expiresAt);
        const parsed = parseIso8601(expiresAt);
        t.must('RES-IMAGE-EXPIRES-AT-24H', () =>
          expect({ file: filename, expiresAt, iso8601: parsed !== undefined }).toEqual({
            file: filename,
            expiresAt,
            iso8601: true,
          }),
        );
        if (parsed && !parsed.offset)
          t.choose('expires-at-offset', 'an ISO 8601 time without an offset (read as UTC)', 'RES-IMAGE-EXPIRES-AT-24H');
        const offsets = (await uploadTimes(t, ex, sentAt)).map((at) => (parsed?.at ?? Number.NaN) - (at + 24 * hour));
        t.must('RES-IMAGE-EXPIRES-AT-24H', () =>
          expect({
            file: filename,
            within5MinutesOf24Hours: offsets.some((d) => Math.abs(d) <= fiveMinutes),
            offsetsMs: offsets,
          }).toMatchObject({ file: filename, within5MinutesOf24Hours: true }),
        );
      }
    },
  );

  conformance(
    'keeps uploads free: the balance is the same after them',
    { covers: ['UPLOAD-FREE'], uploads: 2 },
    async (t) => {
      requireBalance(t);
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const before = await api.credits(actor);
      for (const [filename, bytes, contentType] of [
        ['person.jpg', await makePersonPhoto(), 'image/jpeg'],
        ['garment.png', await makeGarmentImage({ format: 'png' }), 'image/png'],
      ] as const) {
        const ex = await api.upload(actor, bytes, { filename, contentType });
        if (statusOf(ex) !== 200)
          t.inconclusive(`the upload of ${filename} answered ${answerOf(ex)}, so there is no upload to price`);
      }
      const after = await api.credits(actor);
      // POST /images: "Free; no credit used."
      t.must('UPLOAD-FREE', () => expect(after, 'balance after two uploads').toBe(before));
    },
  );

  conformance(
    'refuses bytes that are not an image with 400 UNSUPPORTED_IMAGE, whatever Content-Type is declared',
    { covers: ['ERR-UNSUPPORTED-IMAGE', 'UPLOAD-ERROR-LIST'], uploads: 6, typical: { uploads: profiledRuns(6) } },
    async (t) => {
      const api = new Api(t.target);
      await t.check(
        fc.asyncProperty(
          fc.uint8Array({ minLength: 1, maxLength: 4096 }).filter((b) => !startsLikeJpegOrPng(b)),
          fc.constantFrom(...declaredTypes),
          fc.constantFrom('photo.jpg', 'photo.png', 'file', 'x.bin'),
          async (bytes, contentType, filename) => {
            const ex = await api.upload(t.target.primary, Buffer.from(bytes), { filename, contentType });
            transient(t, ex, `an upload of ${bytes.length} bytes that are not an image`);
            // Errors: "400 | UNSUPPORTED_IMAGE | not JPEG or PNG" (the one 400 of POST /images).
            t.must('ERR-UNSUPPORTED-IMAGE', () =>
              expect({ bytes: bytes.length, contentType, answer: answerOf(ex) }).toEqual({
                bytes: bytes.length,
                contentType,
                answer: '400 UNSUPPORTED_IMAGE',
              }),
            );
          },
        ),
        runs(t, 40, 6),
      );
    },
  );

  conformance(
    'answers a JPEG or PNG cut short (accepted, or refused with the error envelope), and records which',
    { covers: ['UPLOAD-ERROR-LIST', 'ERR-ENVELOPE-SHAPE'], uploads: 6, typical: { uploads: profiledRuns(6) } },
    async (t) => {
      const api = new Api(t.target);
      const images = { jpeg: await makePersonPhoto(), png: await makeGarmentImage({ format: 'png' }) };
      const answers = new Set<string>();
      // Cuts inside the first 90%: the pixel data is missing. A server may take such a file at upload
      // and refuse it at try-on start (422 "image cannot be used for a try-on"): no rule says when.
      const cut = fc
        .constantFrom('jpeg' as const, 'png' as const)
        .chain((format) =>
          fc.tuple(fc.constant(format), fc.integer({ min: 1, max: Math.floor(images[format].length * 0.9) })),
        );
      await t.check(
        fc.asyncProperty(cut, fc.constantFrom(...declaredTypes), async ([format, keep], contentType) => {
          const ex = await api.upload(t.target.primary, images[format].subarray(0, keep), {
            filename: `cut.${format === 'jpeg' ? 'jpg' : 'png'}`,
            contentType,
          });
          answers.add(answerOf(ex).replace(/^200 .*/, '200 accepted'));
          const status = ex.response?.status ?? 0;
          // No answer (our timeout, a keep-alive race) is nothing to judge: the spec sets no upload deadline.
          if (ex.response === undefined)
            t.inconclusive(`an upload cut short got no answer (${ex.error}); the spec sets no upload deadline`);
          // "Every error response is JSON of the shape `{ "error": string, "code": string }`."
          if (status >= 400)
            t.must('ERR-ENVELOPE-SHAPE', () =>
              expect({ format, keep, envelope: hasEnvelope(ex), answer: answerOf(ex) }).toMatchObject({
                format,
                keep,
                envelope: true,
              }),
            );
        }),
        runs(t, 30, 6),
      );
      t.choose('upload-damaged-image', [...answers].sort().join(', '), 'UPLOAD-ERROR-LIST');
    },
  );

  conformance(
    'answers a decompression bomb (a 110 kB PNG declaring 30,000 × 30,000 pixels) and keeps serving uploads, and records how',
    { covers: ['UPLOAD-ERROR-LIST', 'UPLOAD-RESPONSE-200'], uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const bomb = makeDecompressionBomb();
      const started = performance.now();
      const ex = await api.upload(t.target.primary, bomb, { filename: 'bomb.png', contentType: 'image/png' });
      // The spec gives uploads no deadline, and a transport error (our timeout, a keep-alive race) is no
      // answer to judge. A PNG under 4 MB: the spec lets the target take it and refuse it at try-on start;
      // which answer it gets is recorded.
      if (ex.response === undefined)
        t.inconclusive(`the bomb upload got no answer (${ex.error}); the spec sets no upload deadline`);
      t.choose(
        'upload-decompression-bomb',
        `${answerOf(ex).replace(/^200 .*/, '200 accepted')} in ${Math.round(performance.now() - started)} ms`,
        'UPLOAD-ERROR-LIST',
      );
      const next = await api.upload(t.target.primary, await makePersonPhoto(), {
        filename: 'person.jpg',
        contentType: 'image/jpeg',
      });
      transient(t, next, 'the upload after the bomb');
      // The next ordinary upload still gets "Response 200 body: `id` ..., `expiresAt`".
      t.must('UPLOAD-RESPONSE-200', () => expect(answerOf(next), 'a JPEG uploaded after the bomb').toMatch(/^200 /));
    },
  );

  conformance(
    'accepts 4,000,000 bytes, refuses 4,194,305 with 413 IMAGE_TOO_LARGE, and records where the 4 MB boundary sits',
    { covers: ['RES-IMAGE-UP-TO-4MB-ACCEPTED', 'ERR-IMAGE-TOO-LARGE'], uploads: 5, timeoutMs: 180_000 },
    async (t) => {
      const api = new Api(t.target);
      const upload = async (size: number): Promise<string> => {
        const ex = await api.upload(t.target.primary, await makeExactSize(size, 'jpeg'), {
          filename: `at-${size}-bytes.jpg`,
          contentType: 'image/jpeg',
        });
        transient(t, ex, `the upload of ${size} bytes`);
        return answerOf(ex).replace(/^200 .*/, '200 accepted');
      };
      // "Maximum size | 4 MB per image": 4,000,000 bytes is within 4 MB however a MB is counted.
      const decimal = await upload(fourMbAsDecimal);
      t.must('RES-IMAGE-UP-TO-4MB-ACCEPTED', () =>
        expect({ bytes: fourMbAsDecimal, answer: decimal }).toEqual({ bytes: fourMbAsDecimal, answer: '200 accepted' }),
      );
      // "413 | IMAGE_TOO_LARGE | image larger than 4 MB": 4,194,305 bytes is over 4 MB however a MB is counted.
      const over = await upload(fourMbAsMebibytes + 1);
      t.must('ERR-IMAGE-TOO-LARGE', () =>
        expect({ bytes: fourMbAsMebibytes + 1, answer: over }).toEqual({
          bytes: fourMbAsMebibytes + 1,
          answer: '413 IMAGE_TOO_LARGE',
        }),
      );
      // "413 | IMAGE_TOO_LARGE | image larger than 4 MB", for an image twice as large too: past any allowance
      // for the form's framing, where a server may refuse the body by its length before it reads the file.
      const twice = await upload(2 * fourMbAsMebibytes);
      t.must('ERR-IMAGE-TOO-LARGE', () =>
        expect({ bytes: 2 * fourMbAsMebibytes, answer: twice }).toEqual({
          bytes: 2 * fourMbAsMebibytes,
          answer: '413 IMAGE_TOO_LARGE',
        }),
      );
      // Between the two readings of "4 MB", accepted and refused with 413 are both right; nothing else is.
      const between = ['200 accepted', '413 IMAGE_TOO_LARGE'];
      const mebibyte = await upload(fourMbAsMebibytes);
      t.must('ERR-IMAGE-TOO-LARGE', () => expect(between, `${fourMbAsMebibytes} bytes`).toContain(mebibyte));
      if (mebibyte.startsWith('200')) {
        t.choose(
          'four-mb-boundary',
          '4,194,304 bytes accepted, 4,194,305 refused (4 MB = 4 MiB)',
          'RES-IMAGE-UP-TO-4MB-ACCEPTED',
        );
        return;
      }
      const decimalPlusOne = await upload(fourMbAsDecimal + 1);
      t.must('ERR-IMAGE-TOO-LARGE', () => expect(between, `${fourMbAsDecimal + 1} bytes`).toContain(decimalPlusOne));
      t.choose(
        'four-mb-boundary',
        decimalPlusOne.startsWith('413')
          ? '4,000,000 bytes accepted, 4,000,001 refused (4 MB = 4,000,000 bytes)'
          : 'between 4,000,001 (accepted) and 4,194,304 (refused)',
        'RES-IMAGE-UP-TO-4MB-ACCEPTED',
      );
    },
  );
});
