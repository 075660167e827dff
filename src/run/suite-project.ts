/**
 * Where vitest finds the conformance suite. From the sources (tsx, the repository) it is the
 * repository's vitest.config.ts and src/suite/*.suite.ts; compiled (the installed package, or a
 * local `npm run build`) it is the config that ships in dist/ and dist/suite/*.suite.js. Either
 * way the root is the package's own directory, wherever it is installed, never the caller's.
 */
import { fileURLToPath } from 'node:url';
import { conformanceProjectName, type ConformanceMode } from './vitest-project.ts';

/** The package root: two levels up from src/run/ or dist/run/. */
export const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

/** This module runs compiled (dist/run/suite-project.js) rather than from its source. */
const compiled = import.meta.url.endsWith('.js');

const config = compiled ? `${packageRoot}dist/run/vitest.package.config.js` : `${packageRoot}vitest.config.ts`;

/** The vitest options that locate the `conformance` project (any target, files in sequence). */
export const suiteProject = Object.freeze({
  root: packageRoot,
  config,
  project: [conformanceProjectName['any-target']],
});

/**
 * The vitest options of a run in `mode`: `embedded` is the embedded server's project, files in parallel
 * (src/run/vitest-project.ts).
 */
export function suiteProjectOf(mode: ConformanceMode): {
  readonly root: string;
  readonly config: string;
  readonly project: readonly string[];
} {
  return mode === 'embedded'
    ? Object.freeze({ root: packageRoot, config, project: [conformanceProjectName.embedded] })
    : suiteProject;
}
