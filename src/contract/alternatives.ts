/**
 * The alternatives the spec names: where the spec says "X or Y", a rule that applies to
 * a result or a try-on must hold on each. The suite records which alternative each check met
 * (`suite/alternatives.ts`) and the report says which were seen per requirement, and which not
 * (`report/alternatives.ts`). Each dimension quotes the spec sentence that names its alternatives.
 */

export const dimensions = {
  /** Try-on, resultUrl: "On `success`: URL of the finished image (JPEG or PNG)." */
  'result format': { alternatives: ['JPEG', 'PNG'], quote: 'URL of the finished image (JPEG or PNG)' },
  /** Image requirements: "Formats | JPEG or PNG". */
  'input format': { alternatives: ['JPEG', 'PNG'], quote: 'Formats | JPEG or PNG' },
  /**
   * The same row read the other way: every other format is refused. The spec names none of them; these
   * are the common ones (fixtures/excluded-formats.ts), so the report shows which a refusal was seen on.
   */
  'excluded format': {
    alternatives: ['GIF', 'WebP', 'BMP', 'TIFF', 'AVIF', 'SVG', 'PDF'],
    quote: 'Formats | JPEG or PNG',
  },
  /** What the service does: "Each input is either a public HTTPS URL or the id of an image uploaded earlier." */
  'input form': {
    alternatives: ['URL', 'uploaded id'],
    quote: 'Each input is either a public HTTPS URL or the id of an image uploaded earlier.',
  },
  /**
   * What the service does: "The service generates an AI virtual try-on image from two inputs: a person
   * photo and a garment image." A rule of "all images" holds on each.
   */
  image: { alternatives: ['person', 'garment'], quote: 'two inputs: a person photo and a garment image' },
  /**
   * What the service does: "Two ways to get the result: 1. Start a try-on (`POST /tryons`) … 2. Call
   * `POST /tryons/sync`".
   */
  endpoint: { alternatives: ['POST /tryons', 'POST /tryons/sync'], quote: 'Two ways to get the result' },
  /** States and transitions: "States of a try-on: `pending`, `success`, `failed`." (the two final ones). */
  'final state': {
    alternatives: ['success', 'failed'],
    quote: 'poll `GET /tryons/{id}` until the status is `success` or `failed`',
  },
} as const;

export type Dimension = keyof typeof dimensions;
export type Alternative<D extends Dimension = Dimension> = (typeof dimensions)[D]['alternatives'][number];

/** The spec's alternatives of a dimension, in the spec's order; an unknown name has none. */
export function alternativesOf(dimension: string): readonly string[] {
  return (dimensions as Record<string, { alternatives: readonly string[] } | undefined>)[dimension]?.alternatives ?? [];
}
