/**
 * The reference server's image rules (spec, "Image requirements (all images)" and "Limits":
 * JPEG or PNG, 4 MB per image; openapi.yaml `uploadImage` x-reference-server: a pixel count over
 * the cap, or a file that does not decode fully, gets UNSUPPORTED_IMAGE). Applied to uploads
 * and to fetched image URLs alike.
 */
import sharp from 'sharp';
import { readScenarioMarker } from '../../../fixtures/scenario-marker.ts';
import type { ScenarioName } from '../../../fixtures/scenarios.ts';
import { sniffFormat, type ImageFormat } from './image-format.ts';

/** The limits an image is held to: bytes on the wire, and pixels once decoded. */
export interface ImageLimits {
  readonly maxBytes: number;
  readonly maxPixels: number;
}

/** An accepted image, or the API error code and a reason for refusing it. */
export type InspectOutcome =
  | { readonly ok: true; readonly format: ImageFormat; readonly width: number; readonly height: number; readonly scenario?: ScenarioName }
  | { readonly ok: false; readonly code: 'UNSUPPORTED_IMAGE' | 'IMAGE_TOO_LARGE'; readonly reason: string };

/**
 * Checks an image against the spec's image requirements, cheapest test first: size, magic bytes,
 * declared pixel count (before any decoding, so a decompression bomb costs nothing), then a full
 * decode. Reads the scenario marker of an accepted image. Never throws for bad input.
 */
export async function inspectImage(bytes: Buffer, limits: ImageLimits): Promise<InspectOutcome> {
  if (bytes.length > limits.maxBytes) return refuse('IMAGE_TOO_LARGE', `the image is ${bytes.length} bytes; at most ${limits.maxBytes} are allowed`);
  const format = sniffFormat(bytes);
  if (format === undefined) return refuse('UNSUPPORTED_IMAGE', 'the file is not a JPEG or PNG');
  const size = await headerSize(bytes, format);
  if (size === undefined) return refuse('UNSUPPORTED_IMAGE', `the ${format} header cannot be read`);
  const { width, height } = size;
  if (width * height > limits.maxPixels) {
    return refuse('UNSUPPORTED_IMAGE', `the image declares ${width}×${height} pixels; the pixel cap is ${limits.maxPixels}`);
  }
  if (!(await decodesFully(bytes, limits.maxPixels))) return refuse('UNSUPPORTED_IMAGE', `the ${format} image does not decode fully`);
  const scenario = readScenarioMarker(bytes);
  return scenario === undefined ? { ok: true, format, width, height } : { ok: true, format, width, height, scenario };
}

function refuse(code: 'UNSUPPORTED_IMAGE' | 'IMAGE_TOO_LARGE', reason: string): InspectOutcome {
  return { ok: false, code, reason };
}

// metadata() reads the header only; its pixel limit is lifted because the caller applies its own.
async function headerSize(bytes: Buffer, format: ImageFormat): Promise<{ width: number; height: number } | undefined> {
  try {
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    const { width, height } = metadata;
    return metadata.format === format && width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

// stats() streams every pixel through without keeping the image, so truncated or corrupt data fails.
async function decodesFully(bytes: Buffer, maxPixels: number): Promise<boolean> {
  try {
    await sharp(bytes, { failOn: 'error', limitInputPixels: maxPixels, sequentialRead: true }).stats();
    return true;
  } catch {
    return false;
  }
}
