/**
 * The image-bomb table (issue 13): small files that would cost the server far more than their
 * size to decode. Each is built here from raw PNG chunks or JPEG segments (nothing is committed,
 * nothing downloads) and is valid enough that a decoder would go to work on it.
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { makeDecompressionBomb, makePersonPhoto, truncated } from '../../src/fixtures/images.ts';
import { encodePngChunk, pngSignature } from '../../src/fixtures/png-chunks.ts';

export interface Bomb {
  readonly name: string;
  readonly bytes: Buffer;
  /**
   * How the server must answer an upload of it: refused (a 4xx in the envelope), accepted, or
   * either (a file a decoder can make something of, which must then cost little all the same).
   */
  readonly want: 'refused' | 'accepted' | 'either';
}

const mebibyte = 1024 * 1024;
const zeroSegments = new Map<number, Buffer>();

/**
 * A zlib stream of `n` zero bytes, built without holding or deflating `n` bytes: raw deflate
 * segments of 1 MiB of zeros, each ended by a sync flush (so they concatenate), a final empty
 * block, and the Adler-32 of n zeros (a = 1, b = n mod 65521).
 */
export function deflateZeros(n: number): Buffer {
  const segment = (size: number) => {
    let made = zeroSegments.get(size);
    if (!made)
      zeroSegments.set(
        size,
        (made = deflateRawSync(Buffer.alloc(size), { level: 9, finishFlush: constants.Z_SYNC_FLUSH })),
      );
    return made;
  };
  const parts: Buffer[] = [Buffer.from([0x78, 0xda])];
  for (let left = n; left > 0; left -= mebibyte) parts.push(segment(Math.min(mebibyte, left)));
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE((((n % 65521) << 16) | 1) >>> 0, 0);
  parts.push(Buffer.from([0x03, 0x00]), trailer);
  return Buffer.concat(parts);
}

/** A PNG from an IHDR and all-zero rows (filter 0), or the IDAT given. */
function png(
  width: number,
  height: number,
  depth: number,
  colourType: number,
  options: { interlace?: boolean; before?: Buffer[]; idat?: Buffer } = {},
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([depth, colourType, 0, 0, options.interlace ? 1 : 0], 8);
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colourType] ?? 1;
  const rowBytes = 1 + Math.ceil((width * channels * depth) / 8);
  const idat = options.idat ?? deflateZeros(rowBytes * height);
  return Buffer.concat([
    pngSignature,
    encodePngChunk('IHDR', ihdr),
    ...(options.before ?? []),
    encodePngChunk('IDAT', idat),
    encodePngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// zTXt: keyword NUL method(0) deflated text (zeros: the marker reader inflates them all the same).
function zTxt(keyword: string, inflatedBytes: number): Buffer {
  return encodePngChunk('zTXt', Buffer.concat([Buffer.from(`${keyword}\0\0`, 'latin1'), deflateZeros(inflatedBytes)]));
}

/** A progressive JPEG whose last scan is repeated `extra` times (libjpeg warns, and decodes them all). */
async function manyScans(extra: number, side: number): Promise<Buffer> {
  const base = await sharp({ create: { width: side, height: side, channels: 3, background: '#808080' } })
    .jpeg({ progressive: true, quality: 90 })
    .toBuffer();
  const lastScan = base.lastIndexOf(Buffer.from([0xff, 0xda]));
  const eoi = base.length - 2;
  const scan = base.subarray(lastScan, eoi);
  return Buffer.concat([base.subarray(0, eoi), ...Array.from({ length: extra }, () => scan), base.subarray(eoi)]);
}

/** A JPEG whose frame header (SOF) declares other dimensions than its scan data has. */
function withSofSize(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let at = 2; at + 9 < out.length; ) {
    const marker = out[at + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xc2) {
      out.writeUInt16BE(height, at + 5);
      out.writeUInt16BE(width, at + 7);
      return out;
    }
    at += 2 + out.readUInt16BE(at + 2);
  }
  return out;
}

/** The table (built in a few seconds). */
export async function buildBombs(): Promise<Bomb[]> {
  const person = await makePersonPhoto();
  const personPng = await makePersonPhoto({ format: 'png' });
  const bigPhoto = await sharp({
    create: {
      width: 3000,
      height: 2000,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 70 })
    .toBuffer();
  return [
    { name: 'tall PNG, 1 × 4,000,000 (grey, 8-bit)', bytes: png(1, 4_000_000, 8, 0), want: 'refused' },
    { name: 'wide PNG, 4,000,000 × 1 (grey, 8-bit)', bytes: png(4_000_000, 1, 8, 0), want: 'refused' },
    { name: 'tall PNG inside the pixel cap, 2 × 16,000,000 (1-bit)', bytes: png(2, 16_000_000, 1, 0), want: 'refused' },
    { name: 'deep PNG, 6000 × 6000 RGBA 16-bit', bytes: png(6000, 6000, 16, 6), want: 'refused' },
    {
      name: 'deep interlaced PNG, 5000 × 5000 RGB 16-bit',
      bytes: png(5000, 5000, 16, 2, { interlace: true }),
      want: 'refused',
    },
    { name: 'decompression bomb, 30,000 × 30,000 (1-bit)', bytes: makeDecompressionBomb(), want: 'refused' },
    { name: 'progressive JPEG, 20,000 scans', bytes: await manyScans(20_000, 256), want: 'refused' },
    { name: 'progressive JPEG, 33 scans of 2048 × 2048', bytes: await manyScans(33 - 10, 2048), want: 'refused' },
    {
      name: 'PNG with 3,000 zTXt scenario chunks, each inflating past 1 MiB',
      bytes: png(64, 64, 8, 2, {
        before: Array.from({ length: 3_000 }).fill(zTxt('tryon-scenario', 1_100_000)) as Buffer[],
      }),
      want: 'refused',
    },
    {
      name: 'PNG with one iCCP profile inflating to 64 MiB',
      bytes: png(64, 64, 8, 2, {
        before: [
          encodePngChunk('iCCP', Buffer.concat([Buffer.from('icc\0\0', 'latin1'), deflateZeros(64 * mebibyte)])),
        ],
      }),
      want: 'refused',
    },
    {
      name: 'PNG with 200,000 empty tEXt chunks',
      bytes: png(64, 64, 8, 2, {
        before: Array.from({ length: 200_000 }).fill(encodePngChunk('tEXt', Buffer.from('k\0', 'latin1'))) as Buffer[],
      }),
      want: 'refused',
    },
    {
      name: 'lying PNG: IHDR 64 × 64, IDAT holding 8000 × 8000 rows',
      bytes: png(64, 64, 8, 2, { idat: deflateZeros(8000 * (1 + 8000 * 3)) }),
      want: 'accepted',
    },
    {
      name: 'lying PNG: IHDR 12,000 × 2,500 RGB, IDAT of one row',
      bytes: png(12_000, 2_500, 8, 2, { idat: deflateSync(Buffer.alloc(1 + 12_000 * 3)) }),
      want: 'refused',
    },
    {
      name: 'lying JPEG: SOF 16,000 × 2,400 over a 768 × 1024 scan',
      bytes: withSofSize(person, 16_000, 2_400),
      want: 'either',
    },
    {
      name: 'lying JPEG: SOF 8,000 × 4,000 over a 768 × 1024 scan',
      bytes: withSofSize(person, 8_000, 4_000),
      want: 'either',
    },
    { name: 'lying JPEG: SOF 4 × 4 over a 768 × 1024 scan', bytes: withSofSize(person, 4, 4), want: 'accepted' },
    {
      name: 'truncated 6-megapixel JPEG (first 10%)',
      bytes: truncated(bigPhoto, Math.floor(bigPhoto.length / 10)),
      want: 'refused',
    },
    { name: 'truncated PNG (first half)', bytes: truncated(personPng), want: 'refused' },
  ];
}
