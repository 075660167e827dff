/**
 * Format detection (spec, "Image requirements (all images)": JPEG or PNG) looks at magic bytes
 * only, so a file's name or declared type cannot smuggle another format in.
 */
import { describe, expect, it } from 'vitest';
import { makeBmp, makeGif, makePersonPhoto, makeSvg, makeWebp, randomBytes } from '../../../fixtures/images.ts';
import { sniffFormat } from './image-format.ts';

const table = [
  ['a JPEG', await makePersonPhoto(), 'jpeg'],
  ['a PNG', await makePersonPhoto({ format: 'png' }), 'png'],
  ['the three JPEG magic bytes alone', Buffer.from([0xff, 0xd8, 0xff]), 'jpeg'],
  ['a GIF', await makeGif(), undefined],
  ['a WebP', await makeWebp(), undefined],
  ['a BMP', makeBmp(), undefined],
  ['an SVG', makeSvg(), undefined],
  ['random bytes', randomBytes(9, 256), undefined],
  ['an empty file', Buffer.alloc(0), undefined],
  ['SOI without a following marker', Buffer.from([0xff, 0xd8, 0x00, 0x00]), undefined],
  ['a PNG signature cut short', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a]), undefined],
  ['a JPEG behind a leading byte', Buffer.concat([Buffer.from([0]), Buffer.from([0xff, 0xd8, 0xff, 0xe0])]), undefined],
] as const;

describe('sniffFormat', () => {
  it.each(table)('classifies %s', (_, bytes, want) => {
    expect(sniffFormat(bytes)).toBe(want);
  });
});
