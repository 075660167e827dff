/**
 * The reference server's image rules (spec, "Image requirements (all images)", "Limits";
 * openapi.yaml `uploadImage` x-reference-server): size first, then magic bytes, then the declared
 * pixel count before any decoding, then a full decode.
 */
import { describe, expect, it } from 'vitest';
import {
  makeBmp,
  makeDecompressionBomb,
  makeExactSize,
  makeGarmentImage,
  makeGif,
  makeOversized,
  makePersonPhoto,
  makeSvg,
  makeWebp,
  randomBytes,
  truncated,
} from '../../../fixtures/images.ts';
import { makeAvif, makePdf, makeTiff } from '../../../fixtures/excluded-formats.ts';
import { encodePngChunk, pngSignature } from '../../../fixtures/png-chunks.ts';
import { defaultSettings } from '../../config.ts';
import { inspectImage } from './inspect-image.ts';

const limits = { maxBytes: 4 * 1024 * 1024, budget: defaultSettings.decodeBudget };
const person = await makePersonPhoto();
const personPng = await makePersonPhoto({ format: 'png' });

const accepted = [
  ['a JPEG person photo', person, { format: 'jpeg', width: 768, height: 1024 }],
  ['a PNG person photo', personPng, { format: 'png', width: 768, height: 1024 }],
  ['a JPEG garment image', await makeGarmentImage(), { format: 'jpeg', width: 600, height: 600 }],
  [
    'a PNG garment image',
    await makeGarmentImage({ format: 'png', width: 300, height: 200 }),
    { format: 'png', width: 300, height: 200 },
  ],
  [
    'a JPEG of exactly maxBytes',
    await makeExactSize(limits.maxBytes, 'jpeg'),
    { format: 'jpeg', width: 240, height: 320 },
  ],
] as const;

const pngWithoutPixels = Buffer.concat([
  pngSignature,
  encodePngChunk('IHDR', Buffer.from([0, 0, 0, 100, 0, 0, 0, 100, 8, 2, 0, 0, 0])),
  encodePngChunk('IEND', Buffer.alloc(0)),
]);

const unsupported = [
  ['a GIF', await makeGif()],
  ['a WebP', await makeWebp()],
  ['a BMP', makeBmp()],
  ['an SVG', makeSvg()],
  ['a TIFF', await makeTiff()],
  ['an AVIF (HEIF)', await makeAvif()],
  ['a PDF', makePdf()],
  ['random bytes', randomBytes(3, 10_000)],
  ['an empty file', Buffer.alloc(0)],
  ['a truncated JPEG', truncated(person)],
  ['a truncated PNG', truncated(personPng)],
  ['a JPEG cut just before its end marker', truncated(person, person.length - 2)],
  ['a JPEG signature followed by garbage', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), randomBytes(4, 5000)])],
  ['a PNG signature followed by garbage', Buffer.concat([pngSignature, randomBytes(5, 5000)])],
  ['a PNG header with no pixel data', pngWithoutPixels],
] as const;

describe('inspectImage accepts', () => {
  it.each(accepted)('%s, with its format and dimensions', async (_, bytes, want) => {
    expect(await inspectImage(bytes, limits)).toEqual({ ok: true, ...want });
  });

  it.each([
    ['JPEG', 'jpeg', 'person-rejected'],
    ['PNG', 'png', 'slow-generation'],
  ] as const)('a marked %s, with its scenario', async (_, format, scenario) => {
    const outcome = await inspectImage(await makePersonPhoto({ format, scenario }), limits);
    expect(outcome).toMatchObject({ ok: true, format, scenario });
  });
});

describe('inspectImage refuses', () => {
  it.each(unsupported)('%s with UNSUPPORTED_IMAGE', async (_, bytes) => {
    expect(await inspectImage(bytes, limits)).toMatchObject({ ok: false, code: 'UNSUPPORTED_IMAGE' });
  });

  it.each(['jpeg', 'png'] as const)('a %s one byte over maxBytes with IMAGE_TOO_LARGE', async (format) => {
    const outcome = await inspectImage(await makeOversized(limits.maxBytes, format), limits);
    expect(outcome).toMatchObject({ ok: false, code: 'IMAGE_TOO_LARGE' });
  });

  it('an image over the pixel cap with UNSUPPORTED_IMAGE, naming the cap', async () => {
    const outcome = await inspectImage(person, {
      maxBytes: limits.maxBytes,
      budget: { ...limits.budget, maxPixels: 768 * 1024 - 1 },
    });
    expect(outcome).toMatchObject({
      ok: false,
      code: 'UNSUPPORTED_IMAGE',
      reason: expect.stringContaining('pixel cap'),
    });
  });

  it('a decompression bomb quickly, without decoding it', async () => {
    const bomb = makeDecompressionBomb();
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const outcome = await inspectImage(bomb, limits);
    const elapsed = performance.now() - started;
    expect(outcome).toMatchObject({
      ok: false,
      code: 'UNSUPPORTED_IMAGE',
      reason: expect.stringContaining('pixel cap'),
    });
    // Refused from its header (the reason names the pixel cap). The bound is loose on purpose: it
    // catches a full decode (seconds, about 900 MB), not a slow machine (CI has read 450 ms here).
    expect(elapsed).toBeLessThan(5_000);
    // A coarse guard: decoding would need about 900 MB; RSS also moves for unrelated reasons.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
  });
});

describe('inspectImage never throws', () => {
  it.each(Array.from({ length: 20 }, (_, seed) => seed))(
    'for random bytes behind a PNG or JPEG signature (seed %i)',
    async (seed) => {
      const signature = seed % 2 === 0 ? pngSignature : Buffer.from([0xff, 0xd8, 0xff]);
      await expect(
        inspectImage(Buffer.concat([signature, randomBytes(seed, 64 + seed * 97)]), limits),
      ).resolves.toMatchObject({ ok: false });
    },
  );
});
