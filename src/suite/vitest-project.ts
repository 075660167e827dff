/**
 * The vitest project `conformance`, in one place for both ways the suite runs: from the sources
 * (the repository's vitest.config.ts, through vite) and compiled (the package's
 * vitest.package.config.ts, from dist/ inside an integrator's node_modules).
 */
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * `layout` says where the suite files are, relative to the package root: `src` for the `.ts`
 * sources, `dist` for the compiled `.js`. The exclude list is explicit because vitest's default
 * one leaves out every file under node_modules, which is where an installed package's suite is.
 */
export function conformanceProject(layout: 'src' | 'dist'): TestProjectInlineConfiguration {
  const ext = layout === 'src' ? 'ts' : 'js';
  return {
    test: {
      // The conformance suite: speaks only HTTP to a target (TRYON_BASE_URL, or the embedded
      // reference server). One worker, files in sequence: the credit budget and the rate
      // limits are shared by the whole run.
      name: 'conformance',
      include: [`${layout}/suite/**/*.suite.${ext}`],
      exclude: [],
      globalSetup: [`${layout}/suite/global-setup.${ext}`],
      fileParallelism: false,
      isolate: false,
      maxWorkers: 1,
      testTimeout: 180_000,
      hookTimeout: 120_000,
    },
  };
}
