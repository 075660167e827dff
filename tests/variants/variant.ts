/**
 * A conforming variant: the reference server behind the mutating proxy (or with other settings),
 * correct by the spec but making a different spec-allowed choice on a point the spec leaves open or
 * loose. The suite must pass every variant with no failed requirement; a variant that fails is a
 * defect in the suite, never in the variant.
 */
import type { ServerSettings } from '../../src/server/config.ts';
import type { SuiteConfig } from '../../src/suite/config.ts';
import type { ProxyHooks } from '../mutants/mutating-proxy.ts';

/** The classes of issue 11 ("Verdicts you can trust"), plus the ones found while building variants. */
export type VariantClass =
  | 'codes-and-statuses'
  | 'paths'
  | 'tightness'
  | 'counting-and-order'
  | 'whole-body-equality'
  | 'upload-strictness'
  | 'reference-choices'
  | 'media-types'
  | 'transient-answers';

export const variantClasses: readonly VariantClass[] = [
  'codes-and-statuses',
  'paths',
  'tightness',
  'counting-and-order',
  'whole-body-equality',
  'upload-strictness',
  'reference-choices',
  'media-types',
  'transient-answers',
];

export interface Variant extends ProxyHooks {
  readonly name: string;
  readonly class: VariantClass;
  /** The spec's own words that allow the choice (quoted from the spec), and the "not shown" point where there is one. */
  readonly allowedBy: string;
  /** One line: what the variant does differently from the reference server. */
  readonly does: string;
  /** Settings of the reference server behind the proxy (existing settings only; no switch enters src/server). */
  readonly settings?: Partial<ServerSettings>;
  /** What a user would tell the suite about this target (e.g. where the balance is), when the suite has such an option. */
  readonly config?: (config: SuiteConfig) => SuiteConfig;
}
