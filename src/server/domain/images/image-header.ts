/**
 * What an image will cost to decode, read from its headers alone, before any decode. PNG: IHDR (PNG spec
 * 11.2.2) and every chunk's length and type (5.3), compressed metadata (zTXt, iTXt, iCCP) inflated under one
 * shared cap. JPEG: the frame header (ITU T.81 B.2.2) and the number of scans (B.2.3), found by walking the
 * markers (B.1.1.5). Linear in the file size, never in the declared pixel count.
 */
import { inflateSync } from 'node:zlib';
import type { ImageFormat } from './image-format.ts';

/** The facts a decode budget is judged on. */
export interface ImageHeader {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  /** Channels once decoded (a palette PNG with transparency decodes to 4). */
  readonly channels: number;
  /** Bytes per decoded sample: 2 for 16-bit PNG and 12/16-bit JPEG, else 1. */
  readonly bytesPerSample: number;
  /** Interlaced PNG or progressive JPEG: the decoder holds the whole image, not a row at a time. */
  readonly layered: boolean;
  /** JPEG scans (1 for baseline); 1 for PNG. */
  readonly scans: number;
  /** Bytes a decoder must hold: the frame, plus a progressive JPEG's 16-bit coefficients. */
  readonly decodedBytes: number;
  /** PNG text chunks and all chunks; 0 for JPEG. */
  readonly textChunks: number;
  readonly chunks: number;
  /** What compressed metadata inflated to, up to the cap (at the cap means "at least"). */
  readonly inflatedMetadataBytes: number;
}

/** A header, or why it cannot be read. */
export type HeaderOutcome =
  | { readonly ok: true; readonly header: ImageHeader }
  | { readonly ok: false; readonly reason: string };

/** Reads the header of a PNG or JPEG; `inflateCap` bounds the inflation of PNG metadata. */
export function readImageHeader(bytes: Buffer, format: ImageFormat, inflateCap: number): HeaderOutcome {
  return format === 'png' ? readPngHeader(bytes, inflateCap) : readJpegHeader(bytes);
}

const bad = (reason: string): HeaderOutcome => ({ ok: false, reason });

// PNG 11.2.2: allowed bit depths per colour type, and the channels each decodes to.
const pngColourTypes: Readonly<Record<number, { depths: readonly number[]; channels: number }>> = {
  0: { depths: [1, 2, 4, 8, 16], channels: 1 },
  2: { depths: [8, 16], channels: 3 },
  3: { depths: [1, 2, 4, 8], channels: 3 },
  4: { depths: [8, 16], channels: 2 },
  6: { depths: [8, 16], channels: 4 },
};

const compressedMetadata = new Set(['zTXt', 'iTXt', 'iCCP']);
const textChunks = new Set(['tEXt', 'zTXt', 'iTXt']);

function readPngHeader(bytes: Buffer, inflateCap: number): HeaderOutcome {
  if (bytes.length < 8 + 25 || bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR')
    return bad('the PNG does not start with an IHDR chunk');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const [depth = 0, colourType = 0, compression, filter, interlace] = bytes.subarray(24, 29);
  const colour = pngColourTypes[colourType];
  if (
    !colour ||
    !colour.depths.includes(depth) ||
    compression !== 0 ||
    filter !== 0 ||
    (interlace !== 0 && interlace !== 1)
  ) {
    return bad('the PNG IHDR chunk is not valid');
  }
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff)
    return bad('the PNG declares no pixels');
  let chunks = 0;
  let text = 0;
  let idat = false;
  let transparency = false;
  let inflated = 0;
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    chunks++;
    if (length > 0x7fffffff || end > bytes.length) break; // truncated: the decoder will say so
    if (type === 'IDAT') idat = true;
    if (type === 'tRNS') transparency = true;
    if (textChunks.has(type)) text++;
    if (compressedMetadata.has(type) && inflated <= inflateCap)
      inflated += inflatedSize(type, bytes.subarray(at + 8, at + 8 + length), inflateCap - inflated + 1);
    if (type === 'IEND') break;
    at = end;
  }
  if (!idat) return bad('the PNG has no image data');
  const channels = colourType === 3 && transparency ? 4 : colour.channels;
  const bytesPerSample = depth === 16 ? 2 : 1;
  return {
    ok: true,
    header: {
      format: 'png',
      width,
      height,
      channels,
      bytesPerSample,
      layered: interlace === 1,
      scans: 1,
      decodedBytes: width * height * channels * bytesPerSample,
      textChunks: text,
      chunks,
      inflatedMetadataBytes: Math.min(inflated, inflateCap + 1),
    },
  };
}

// The compressed part of zTXt (keyword NUL method data), iCCP (name NUL method data) and a
// compressed iTXt (keyword NUL flag method language NUL translated NUL data), inflated at most to
// `cap` bytes. A stream that does not inflate counts as nothing: the decoder judges it.
function inflatedSize(type: string, data: Buffer, cap: number): number {
  const nul = data.indexOf(0);
  if (nul < 0) return 0;
  let deflated: Buffer;
  if (type === 'iTXt') {
    if (data[nul + 1] !== 1) return 0;
    const languageEnd = data.indexOf(0, nul + 3);
    const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
    if (translatedEnd < 0) return 0;
    deflated = data.subarray(translatedEnd + 1);
  } else {
    deflated = data.subarray(nul + 2);
  }
  try {
    return inflateSync(deflated, { maxOutputLength: Math.max(1, cap) }).length;
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? cap : 0;
  }
}

// T.81 B.1.1.3: SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC). Progressive: SOF2, 6, 10, 14.
const isFrameMarker = (m: number): boolean => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
const isProgressive = (m: number): boolean => m === 0xc2 || m === 0xc6 || m === 0xca || m === 0xce;
// Markers without a length: TEM, RST0-7, SOI, EOI.
const isStandalone = (m: number): boolean => m === 0x01 || (m >= 0xd0 && m <= 0xd9);

interface JpegFrame {
  readonly width: number;
  readonly height: number;
  readonly precision: number;
  readonly progressive: boolean;
  readonly samples: number;
  readonly components: number;
}

function readJpegHeader(bytes: Buffer): HeaderOutcome {
  let frame: JpegFrame | undefined;
  let scans = 0;
  let at = 2;
  while (at + 1 < bytes.length) {
    if (bytes[at] !== 0xff) {
      // Entropy-coded data after a scan header (or stray bytes, which decoders skip with a
      // warning): jump to the next 0xFF.
      at = bytes.indexOf(0xff, at);
      if (at < 0) break;
      continue;
    }
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x00 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // a stuffed 0xFF, or a restart marker, inside entropy-coded data
      continue;
    }
    if (marker === 0xd9) break; // EOI
    if (isStandalone(marker)) {
      at += 2;
      continue;
    }
    if (at + 4 > bytes.length) break;
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return bad('the JPEG has a segment with an impossible length');
    const payload = bytes.subarray(at + 4, Math.min(bytes.length, at + 2 + length));
    if (isFrameMarker(marker)) {
      if (frame) return bad('the JPEG has more than one frame header');
      const read = readFrame(marker, payload);
      if (typeof read === 'string') return bad(read);
      frame = read;
    } else if (marker === 0xda) {
      if (!frame) return bad('the JPEG has a scan before its frame header');
      scans++;
    }
    at += 2 + length;
  }
  if (!frame) return bad('the JPEG has no frame header');
  if (scans === 0) return bad('the JPEG has no scan');
  const bytesPerSample = frame.precision > 8 ? 2 : 1;
  const frameBytes = frame.width * frame.height * frame.components * bytesPerSample;
  return {
    ok: true,
    header: {
      format: 'jpeg',
      width: frame.width,
      height: frame.height,
      channels: frame.components,
      bytesPerSample,
      layered: frame.progressive,
      scans,
      // A progressive decoder keeps every DCT coefficient (16 bits each) until the last scan.
      decodedBytes: frameBytes + (frame.progressive ? frame.samples * 2 : 0),
      textChunks: 0,
      chunks: 0,
      inflatedMetadataBytes: 0,
    },
  };
}

// T.81 B.2.2: P, Y, X, Nf, then Nf × (C, H|V, Tq).
function readFrame(marker: number, payload: Buffer): JpegFrame | string {
  if (payload.length < 6) return 'the JPEG frame header is cut short';
  const precision = payload[0] ?? 0;
  const height = payload.readUInt16BE(1);
  const width = payload.readUInt16BE(3);
  const components = payload[5] ?? 0;
  if (height === 0) return 'the JPEG declares its height later (DNL), which is not supported';
  if (width === 0 || components === 0 || components > 4 || payload.length < 6 + components * 3)
    return 'the JPEG frame header is not valid';
  const factors = Array.from({ length: components }, (_, i) => {
    const hv = payload[6 + i * 3 + 1] ?? 0;
    return { h: Math.max(1, hv >> 4), v: Math.max(1, hv & 0x0f) };
  });
  const hMax = Math.max(...factors.map((f) => f.h));
  const vMax = Math.max(...factors.map((f) => f.v));
  const samples = factors.reduce(
    (sum, f) => sum + Math.ceil((width * f.h) / hMax) * Math.ceil((height * f.v) / vMax),
    0,
  );
  return { width, height, precision, progressive: isProgressive(marker), samples, components };
}
