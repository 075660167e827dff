/**
 * Conforming variants: each is correct by the spec and differs from the reference server on one
 * point the spec leaves open or loose. One file per class under `classes/`; this file lists them
 * all and names the quick subset (one per class) for CI.
 */
import { codesVariants } from './classes/codes-and-statuses.ts';
import { countingVariants } from './classes/counting-and-order.ts';
import { mediaTypeVariants } from './classes/media-types.ts';
import { idShapeVariants, pathsVariants } from './classes/paths.ts';
import { moreReferenceVariants, referenceVariants } from './classes/reference-choices.ts';
import { tightnessVariants } from './classes/tightness.ts';
import { transientVariants } from './classes/transient-answers.ts';
import { uploadVariants } from './classes/upload-strictness.ts';
import { wholeBodyVariants } from './classes/whole-body-equality.ts';
import type { Variant } from './variant.ts';

export const variants: readonly Variant[] = [
  ...codesVariants,
  ...pathsVariants,
  ...idShapeVariants,
  ...tightnessVariants,
  ...countingVariants,
  ...wholeBodyVariants,
  ...uploadVariants,
  ...referenceVariants,
  ...moreReferenceVariants,
  ...mediaTypeVariants,
  ...transientVariants,
];

/**
 * `--quick`: one variant per class, each touching a different part of the suite. `transient-answers`
 * (found last) joins it with `start-failed-every-10th-start` once the suite passes that class.
 */
export const quickVariants: readonly string[] = [
  'key-reuse-409-conflict',
  'result-path-two-segments',
  'retry-after-plus-3',
  'title-counted-in-utf16-units',
  'reads-differ-in-served-at',
  'damaged-image-accepted-at-upload',
  'consent-wrong-type-400',
  'errors-as-problem-json',
];
