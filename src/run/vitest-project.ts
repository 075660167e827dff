/**
 * The vitest projects of the conformance suite, for both ways it runs: from the sources (vitest.config.ts)
 * and compiled (vitest.package.config.ts, from dist/). `conformance`: any target, one worker, files in
 * sequence, since the credit budget, rate limits and clock belong to the whole run. `conformance-embedded`:
 * files in parallel, each worker with its own server instance (worker-instance.ts), sharing nothing.
 */
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Workers of the embedded run, each with a reference server of its own: more than the 2 cores, since the
 * run mostly waits (generation, sync waits, fetch deadlines), yet each worker costs a process start.
 */
export const embeddedWorkers = 3;

export type ConformanceMode = 'any-target' | 'embedded';

/** The project name of each mode. */
export const conformanceProjectName: Readonly<Record<ConformanceMode, string>> = {
  'any-target': 'conformance',
  embedded: 'conformance-embedded',
};

/**
 * `layout` says where the suite files are, relative to the package root: `src` for the `.ts`
 * sources, `dist` for the compiled `.js`. The exclude list is explicit because vitest's default
 * one leaves out every file under node_modules, which is where an installed package's suite is.
 */
export function conformanceProject(
  layout: 'src' | 'dist',
  mode: ConformanceMode = 'any-target',
): TestProjectInlineConfiguration {
  const ext = layout === 'src' ? 'ts' : 'js';
  const workers = mode === 'embedded' ? embeddedWorkers : 1;
  return {
    test: {
      // The conformance suite: speaks only HTTP to a target (TRYON_BASE_URL, or the embedded
      // reference server).
      name: conformanceProjectName[mode],
      include: [`${layout}/suite/**/*.suite.${ext}`],
      exclude: [],
      globalSetup: [`${layout}/run/global-setup.${ext}`],
      fileParallelism: workers > 1,
      isolate: false,
      maxWorkers: workers,
      testTimeout: 180_000,
      hookTimeout: 120_000,
    },
  };
}
