/**
 * The vitest projects of the conformance suite, in one place for both ways the suite runs: from the
 * sources (the repository's vitest.config.ts, through vite) and compiled (the package's
 * vitest.package.config.ts, from dist/ inside an integrator's node_modules).
 *
 * - `conformance`: any target. One worker, files in sequence: the credit budget, the rate limits
 *   and the target's clock are shared by the whole run.
 * - `conformance-embedded`: the embedded reference server only. Files in parallel, one worker per
 *   instance of the server (`embedded-target.ts` starts one per worker, `worker-instance.ts` picks
 *   the worker's own), so no two files share accounts, limits, credits or the test clock.
 */
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Workers of the embedded run, each with a reference server of its own. The run mostly waits
 * (generation, sync waits, fetch deadlines), so more than the 2 cores; each worker and instance
 * costs a process start, and on 2 cores 3 did as well as 4 on less CPU (2: slower).
 */
export const embeddedWorkers = 3;

export type ConformanceMode = 'any-target' | 'embedded';

/** The project name of each mode. */
export const conformanceProjectName: Readonly<Record<ConformanceMode, string>> = { 'any-target': 'conformance', embedded: 'conformance-embedded' };

/**
 * `layout` says where the suite files are, relative to the package root: `src` for the `.ts`
 * sources, `dist` for the compiled `.js`. The exclude list is explicit because vitest's default
 * one leaves out every file under node_modules, which is where an installed package's suite is.
 */
export function conformanceProject(layout: 'src' | 'dist', mode: ConformanceMode = 'any-target'): TestProjectInlineConfiguration {
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
