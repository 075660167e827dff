/**
 * Where vitest finds the conformance suite. From the sources (tsx, the repository) it is the
 * repository's vitest.config.ts and src/suite/*.suite.ts; compiled (the installed package, or a
 * local `npm run build`) it is the config that ships in dist/ and dist/suite/*.suite.js. Either
 * way the root is the package's own directory, wherever it is installed, never the caller's.
 */
import { fileURLToPath } from 'node:url';

/** The package root: two levels up from src/cli/ or dist/cli/. */
export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/** This module runs compiled (dist/cli/suite-project.js) rather than from its source. */
const compiled = import.meta.url.endsWith('.js');

/** The vitest options that locate the `conformance` project. */
export const suiteProject = Object.freeze({
  root: packageRoot,
  config: compiled ? `${packageRoot}dist/suite/vitest.package.config.js` : `${packageRoot}vitest.config.ts`,
  project: ['conformance'],
});
