/**
 * The vitest configuration the installed package runs its compiled suite with (dist/suite/*.suite.js):
 * only the `conformance` project, rooted at the package's own directory (src/cli/suite-project.ts
 * passes root and this file). The repository's vitest.config.ts holds the same project for the sources.
 */
import { defineConfig } from 'vitest/config';
import { CheapFirstSequencer } from './file-order.ts';
import { conformanceProject } from './vitest-project.ts';

export default defineConfig({
  test: {
    sequence: { sequencer: CheapFirstSequencer },
    projects: [conformanceProject('dist')],
  },
});
