/**
 * A run as asked for: parsed once from flags and environment (src/cli/run-config.ts), its
 * defaults filled, frozen, and passed down as it is.
 */
import type { Expectations } from '../report/expectation-types.ts';
import type { SuiteConfig } from '../suite/config.ts';

export interface RunRequest {
  /** The target's configuration; for the embedded target, its shape until it is up ({@link embeddedShape}). */
  readonly config: SuiteConfig;
  /** No base URL was given: the run starts the embedded reference server and targets it. */
  readonly embedded: boolean;
  /** Run only the tests whose name matches (vitest's testNamePattern). */
  readonly grep?: string;
  /** Where reports/<timestamp>/ and latest go, and where the plan looks for an earlier run. */
  readonly reportRoot: string;
  /** Seconds the target takes to make a try-on, for the plan's estimate; the estimate's default when absent. */
  readonly generationSeconds?: number;
  /** The folder of kept files, where the suite's collection is kept between runs; absent when the cache is off. */
  readonly keptDir?: string;
  /** Known failures (`--expect FILE`), applied to the report. */
  readonly expectations?: Expectations;
}

/** The embedded target's configuration before it is up: enough to collect the suite (test control on). */
export function embeddedShape(base: Omit<SuiteConfig, 'baseUrl'>): SuiteConfig {
  const control = { url: 'embedded', token: 'embedded' };
  return { ...base, baseUrl: 'http://127.0.0.1/api/v1', control, fixtureBaseUrl: 'embedded' };
}
