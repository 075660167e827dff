/**
 * The generation engine behind a try-on (spec, "States and transitions": generation runs in the
 * background and either produces an image that passes safety checks, or fails with a message
 * and a refund). The queue calls it; a failure is a value, never an exception.
 */
import type { ScenarioName } from '../../../fixtures/scenarios.ts';
import type { ImageFormat } from './image-format.ts';

/** What one generation gets: the two accepted images, the optional product title and scenario. */
export interface EngineInput {
  readonly person: Buffer;
  readonly garment: Buffer;
  readonly title?: string;
  readonly scenario?: ScenarioName;
}

/** A finished image (JPEG or PNG, carrying the AI label), or the message a `failed` try-on shows. */
export type EngineResult =
  | { readonly ok: true; readonly image: Buffer; readonly format: ImageFormat }
  | { readonly ok: false; readonly message: string };

/** Makes the try-on image. Implementations never throw; every failure is `{ ok: false }`. */
export interface Engine {
  generate(input: EngineInput): Promise<EngineResult>;
}
