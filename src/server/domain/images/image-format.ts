/**
 * Image format detection (spec, "Image requirements (all images)": JPEG or PNG). The type is
 * decided from the file's first bytes only; a declared Content-Type is never trusted.
 */
import { isJpeg } from '../../../fixtures/jpeg-segments.ts';
import { isPng } from '../../../fixtures/png-chunks.ts';

/** An accepted image format. */
export type ImageFormat = 'jpeg' | 'png';

/** JPEG (`FF D8 FF`) or PNG (the 8-byte signature) by magic bytes; undefined for anything else. */
export function sniffFormat(bytes: Buffer): ImageFormat | undefined {
  if (isJpeg(bytes)) return 'jpeg';
  if (isPng(bytes)) return 'png';
  return undefined;
}
