/**
 * The vitest configuration the installed package runs its compiled suite with (dist/suite/*.suite.js):
 * the `conformance` project and `conformance-embedded` (the same files in parallel, against the
 * embedded server only), rooted at the package's own directory (src/run/suite-project.ts passes
 * root and this file). The repository's vitest.config.ts holds the same projects for the sources.
 */
import { defineConfig } from 'vitest/config';
import { CheapFirstSequencer } from './file-sequencer.ts';
import { conformanceProject } from './vitest-project.ts';

export default defineConfig({
  test: {
    sequence: { sequencer: CheapFirstSequencer },
    projects: [conformanceProject('dist'), conformanceProject('dist', 'embedded')],
  },
});
