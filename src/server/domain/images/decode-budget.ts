/**
 * The decode budget (openapi.yaml `uploadImage` x-reference-server): an image is refused
 * before decoding when its headers show it would cost more than the budget allows.
 */
import type { DecodeBudget } from '../../config.ts';
import type { ImageHeader } from './image-header.ts';

/** Why the image is over budget, or undefined when it fits. The cheapest reason is named first. */
export function overBudget(header: ImageHeader, budget: DecodeBudget): string | undefined {
  const { width, height } = header;
  const pixels = width * height;
  const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;
  if (pixels > budget.maxPixels)
    return `the image declares ${width}×${height} pixels; the pixel cap is ${budget.maxPixels}`;
  if (Math.max(width, height) > budget.maxSide)
    return `the image declares ${width}×${height} pixels; no side may exceed ${budget.maxSide}`;
  if (header.decodedBytes > budget.maxDecodedBytes) {
    return `decoding the image would hold ${mib(header.decodedBytes)}; the budget is ${mib(budget.maxDecodedBytes)}`;
  }
  if (header.scans > budget.maxJpegScans)
    return `the JPEG has ${header.scans} scans; at most ${budget.maxJpegScans} are decoded`;
  if (header.chunks > budget.maxPngChunks)
    return `the PNG has ${header.chunks} chunks; at most ${budget.maxPngChunks} are read`;
  if (header.textChunks > budget.maxPngTextChunks)
    return `the PNG has ${header.textChunks} text chunks; at most ${budget.maxPngTextChunks} are read`;
  if (header.inflatedMetadataBytes > budget.maxInflatedMetadataBytes) {
    return `the PNG's compressed metadata inflates past ${mib(budget.maxInflatedMetadataBytes)}`;
  }
  return undefined;
}
