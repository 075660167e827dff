/**
 * The reference server's image rules (spec, "Image requirements (all images)" and "Limits":
 * JPEG or PNG, 4 MB per image; openapi.yaml `uploadImage` x-reference-server: an image over the
 * decode budget, or a file that does not decode fully, gets UNSUPPORTED_IMAGE). Applied to uploads
 * and to fetched image URLs alike; a start turns an over-budget image into IMAGE_REJECTED.
 */
import sharp from 'sharp';
import type { DecodeBudget } from '../../config.ts';
import { readScenarioMarker } from '../../../fixtures/scenario-marker.ts';
import type { ScenarioName } from '../../../fixtures/scenarios.ts';
import type { DecodeOutcome } from './decode-pool.ts';
import { overBudget } from './decode-budget.ts';
import { sniffFormat, type ImageFormat } from './image-format.ts';
import { readImageHeader } from './image-header.ts';

/** The limits an image is held to: bytes on the wire, and what decoding it may cost. */
export interface ImageLimits {
  readonly maxBytes: number;
  readonly budget: DecodeBudget;
}

/** Decodes every pixel of an image, bounded; the server's is the decode pool. */
export type Decoder = (bytes: Buffer) => Promise<DecodeOutcome>;

/** The codes an image can be refused with. */
export type InspectCode = 'UNSUPPORTED_IMAGE' | 'IMAGE_TOO_LARGE' | 'UNAVAILABLE';

/**
 * An accepted image, or the API error code and a reason for refusing it. `overBudget` marks a
 * JPEG or PNG that is refused for what it would cost to decode, not for what it is.
 */
export type InspectOutcome =
  | {
      readonly ok: true;
      readonly format: ImageFormat;
      readonly width: number;
      readonly height: number;
      readonly scenario?: ScenarioName;
    }
  | { readonly ok: false; readonly code: InspectCode; readonly reason: string; readonly overBudget?: true };

/**
 * Checks an image against the spec's image requirements and the decode budget, cheapest test
 * first: size, magic bytes, the header (dimensions, bit depth, scans, chunks, inflated metadata)
 * judged against the budget before a single pixel is decoded, then a full decode by `decode`.
 * Reads the scenario marker of an accepted image. Never throws for bad input.
 */
export async function inspectImage(
  bytes: Buffer,
  limits: ImageLimits,
  decode: Decoder = decodeHere(limits.budget.maxPixels),
): Promise<InspectOutcome> {
  if (bytes.length > limits.maxBytes)
    return refuse('IMAGE_TOO_LARGE', `the image is ${bytes.length} bytes; at most ${limits.maxBytes} are allowed`);
  const format = sniffFormat(bytes);
  if (format === undefined) return refuse('UNSUPPORTED_IMAGE', 'the file is not a JPEG or PNG');
  const read = readImageHeader(bytes, format, limits.budget.maxInflatedMetadataBytes);
  if (!read.ok) return refuse('UNSUPPORTED_IMAGE', `the ${format} header cannot be read: ${read.reason}`);
  const { width, height } = read.header;
  const tooCostly = overBudget(read.header, limits.budget);
  if (tooCostly !== undefined) return { ok: false, code: 'UNSUPPORTED_IMAGE', reason: tooCostly, overBudget: true };
  const decoded = await decode(bytes);
  if (!decoded.ok) {
    if (decoded.kind === 'busy') return refuse('UNAVAILABLE', `the image cannot be checked now: ${decoded.reason}`);
    if (decoded.kind === 'deadline')
      return {
        ok: false,
        code: 'UNSUPPORTED_IMAGE',
        reason: `the ${format} image ${decoded.reason}`,
        overBudget: true,
      };
    return refuse('UNSUPPORTED_IMAGE', `the ${format} image does not decode fully`);
  }
  // Safe after the budget check: compressed text is capped, so reading the marker costs little.
  const scenario = readScenarioMarker(bytes);
  return scenario === undefined ? { ok: true, format, width, height } : { ok: true, format, width, height, scenario };
}

function refuse(code: InspectCode, reason: string): InspectOutcome {
  return { ok: false, code, reason };
}

/**
 * Decodes on the calling thread's libuv pool, with the same sharp bounds as the decode workers;
 * for callers without a pool (unit tests, one-off checks).
 */
export function decodeHere(maxPixels: number): Decoder {
  return async (bytes) => {
    try {
      await sharp(bytes, { failOn: 'error', limitInputPixels: maxPixels, sequentialRead: true, unlimited: false })
        .timeout({ seconds: 3 })
        .resize({ width: 32, height: 32, fit: 'inside' })
        .raw()
        .toBuffer();
      return { ok: true };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, kind: /timeout/i.test(reason) ? 'deadline' : 'corrupt', reason };
    }
  };
}
