import { defineConfig } from 'vitest/config';
import { CheapFirstSequencer } from './src/run/file-sequencer.ts';
import { conformanceProject } from './src/run/vitest-project.ts';

// Projects: `unit` runs in `npm test`; `conformance` is the suite (`npm run conformance`), and
// `conformance-embedded` the same suite, files in parallel, against the embedded server only;
// `browser` needs Debian's chromium and runs in `npm run test:browser` (and in .ci/run); `sandbox` needs
// Debian's postgresql (and haproxy) and runs in `npm run test:sandbox` (and in .ci/run).
export default defineConfig({
  test: {
    // Only reorders the conformance files (cheap first); every other file keeps its rank.
    sequence: { sequencer: CheapFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: ['tests/browser/**', 'tests/sandbox/**', 'node_modules/**'],
          testTimeout: 30_000,
        },
      },
      // The conformance suite (src/run/vitest-project.ts; the package runs the same project compiled).
      conformanceProject('src'),
      // The same suite against the embedded server only, files in parallel (one server instance per worker).
      conformanceProject('src', 'embedded'),
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'sandbox',
          include: ['tests/sandbox/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
