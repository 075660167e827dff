/**
 * Which instance of the embedded server a worker of a parallel run speaks to (vitest project
 * `conformance-embedded`): the one of its pool slot. vitest gives each worker a slot from 1 to
 * maxWorkers (`VITEST_POOL_ID`) that no other worker holds while it runs, and a worker keeps its
 * slot, so no two files that run at the same time share an instance.
 */
import type { SuiteConfig } from './config.ts';

/** Where one instance answers: what differs between the instances of a run. */
export type EmbeddedInstance = Pick<SuiteConfig, 'baseUrl'> & { readonly control: NonNullable<SuiteConfig['control']> };

declare module 'vitest' {
  export interface ProvidedContext {
    /** The embedded server's instances, one per worker, when the run has several (run.ts). */
    embeddedInstances?: EmbeddedInstance[];
  }
}

/** The run's configuration as the worker in pool slot `poolId` sees it. */
export function configOfWorker(
  config: SuiteConfig,
  instances: readonly EmbeddedInstance[] | undefined,
  poolId: string | undefined,
): SuiteConfig {
  if (instances === undefined || instances.length === 0) return config;
  const slot = Number(poolId ?? '1');
  const instance = instances[slot - 1];
  // A slot without an instance of its own would share one with another worker: never.
  if (!Number.isInteger(slot) || instance === undefined)
    throw new Error(
      `worker slot ${poolId ?? '(none)'}: the run has ${instances.length} embedded instance(s), one per worker`,
    );
  return Object.freeze({ ...config, ...instance });
}
