/**
 * The run information a report carries besides its test modules: tool version, the sha256 of the
 * openapi.yaml the run was built from, seed, profile and what the configuration offered.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { paths } from '../contract/paths.ts';
import { configuredOffers } from '../suite/capabilities.ts';
import type { SuiteConfig } from '../suite/config.ts';
import type { PlannedCost } from './cost.ts';
import type { RunInfo } from './model.ts';

export interface RunFacts {
  readonly config: SuiteConfig;
  /** The run used the embedded reference server. */
  readonly embedded: boolean;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly grep?: string;
  readonly unhandledErrors?: ReadonlyArray<{ readonly message: string }>;
  /** The run was stopped before its end (src/cli/interrupt.ts). */
  readonly interrupted?: { readonly signal?: string; readonly reason: string; readonly at: Date };
  /** What the plan said the run would cost (src/run/plan.ts `plannedCostOf`), to set beside the actual cost. */
  readonly plannedCost?: PlannedCost;
}

/** Fills in a report's RunInfo from the run's configuration and timing. */
export function runInfo(facts: RunFacts): RunInfo {
  const { config } = facts;
  return {
    tool: toolIdentity(),
    target: { baseUrl: config.baseUrl, embedded: facts.embedded },
    openapiSha256: sha256File(paths.openapi),
    seed: config.seed,
    ...(config.path !== undefined && { path: config.path }),
    ...(facts.grep !== undefined && { grep: facts.grep }),
    profile: config.profile,
    capabilities: configuredOffers(config),
    startedAt: facts.startedAt,
    durationMs: facts.durationMs,
    ...(facts.unhandledErrors !== undefined && { unhandledErrors: facts.unhandledErrors }),
    ...(facts.interrupted !== undefined && { interrupted: facts.interrupted }),
    ...(facts.plannedCost !== undefined && { plannedCost: facts.plannedCost }),
  };
}

/** The toolkit's name and version, from package.json. */
export function toolIdentity(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(`${paths.root}package.json`, 'utf8')) as { name?: string; version?: string };
  return { name: pkg.name ?? 'tryon-conformance', version: pkg.version ?? '0.0.0' };
}

export function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
