/**
 * The reference server's default engine: no model, just the garment laid over the person's torso
 * with sharp, labelled as AI output (spec, "What the service does": every result carries a
 * machine-readable AI label). Deterministic: the same inputs give the same bytes.
 */
import sharp from 'sharp';
import { aiLabelXmp } from './ai-label.ts';
import type { Engine, EngineInput, EngineResult } from './engine.ts';
import { sniffFormat, type ImageFormat } from './image-format.ts';
import { ResultCache } from './result-cache.ts';

/** Options of the composite engine: a simulated generation time, and the sleep that waits it out. */
export interface CompositeEngineOptions {
  readonly latencyMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * How many results to keep by their inputs (default 0: none), since the same inputs give the same
   * bytes (result-cache.ts). The server keeps a few; the engine's own benchmark keeps none.
   */
  readonly cachedResults?: number;
}

/** The message of a generation that fails its safety checks (scenario `generation-fails`). */
export const safetyFailureMessage = 'The result did not pass safety checks. Your credit has been returned.';

/** The message of a generation whose images could not be combined. */
export const generationErrorMessage = 'The try-on image could not be generated. Your credit has been returned.';

/** The longest side of a result image, in pixels. */
export const maxResultSide = 2048;

// The garment spans this share of the person's width, centred this far down the picture.
const garmentWidthShare = 0.4;
const torsoCentreShare = 0.39;

/**
 * Creates the composite engine. The result keeps the person photo's format (PNG in, PNG out;
 * otherwise JPEG at quality 85), so a client sees both XMP carriers: JPEG APP1 and a PNG text
 * chunk. Scenario `generation-fails` fails after the latency. The title does not change the image.
 */
export function createCompositeEngine(options: CompositeEngineOptions = {}): Engine {
  const latencyMs = options.latencyMs ?? 0;
  const sleep = options.sleep ?? defaultSleep;
  const cache =
    (options.cachedResults ?? 0) > 0 ? new ResultCache<EngineResult>(options.cachedResults ?? 0) : undefined;
  const make = (input: EngineInput): Promise<EngineResult> =>
    composite(input).catch((): EngineResult => ({ ok: false, message: generationErrorMessage }));
  return {
    async generate(input: EngineInput): Promise<EngineResult> {
      if (latencyMs > 0) await sleep(latencyMs);
      if (input.scenario === 'generation-fails') return { ok: false, message: safetyFailureMessage };
      // The image depends on the two images alone (the title does not change it).
      return cache ? cache.get(ResultCache.keyOf([input.person, input.garment]), () => make(input)) : make(input);
    },
  };
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function composite(input: EngineInput): Promise<EngineResult> {
  const person = await sharp(input.person, { failOn: 'error' })
    .rotate()
    .resize({ width: maxResultSide, height: maxResultSide, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = person.info;
  const garment = await fitGarment(
    input.garment,
    Math.max(1, Math.round(width * garmentWidthShare)),
    Math.max(1, Math.round(height / 2)),
  );
  const left = Math.round((width - garment.width) / 2);
  const top = Math.max(
    0,
    Math.min(height - garment.height, Math.round(height * torsoCentreShare - garment.height / 2)),
  );
  const format: ImageFormat = sniffFormat(input.person) === 'png' ? 'png' : 'jpeg';
  // Multiply lets a garment's white background vanish over the person, with no pasted box.
  const image = sharp(person.data, { raw: { width, height, channels } })
    .composite([
      {
        input: garment.data,
        raw: { width: garment.width, height: garment.height, channels: garment.channels },
        left,
        top,
        blend: 'multiply',
      },
    ])
    .withXmp(aiLabelXmp);
  const bytes = await (format === 'png' ? image.png() : image.jpeg({ quality: 85 })).toBuffer();
  return { ok: true, image: bytes, format };
}

interface RawImage {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 2 | 3 | 4;
}

// The garment is cropped to its content (a flat background border goes) and fitted into a box.
async function fitGarment(bytes: Buffer, maxWidth: number, maxHeight: number): Promise<RawImage> {
  const trimmed = await sharp(bytes, { failOn: 'error' }).rotate().flatten({ background: '#ffffff' }).trim().toBuffer();
  const { data, info } = await sharp(trimmed)
    .resize({ width: maxWidth, height: maxHeight, fit: 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}
