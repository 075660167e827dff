import { defineConfig } from 'vitest/config';
import { CheapFirstSequencer } from './src/suite/file-order.ts';

// Projects: `unit` runs in `npm test`; `conformance` is the suite (`npm run conformance`);
// `browser` needs Debian's chromium and runs in `npm run test:browser` (and in .ci/run).
export default defineConfig({
  test: {
    // Only reorders the conformance files (cheap first); every other file keeps its rank.
    sequence: { sequencer: CheapFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['tests/browser/**', 'node_modules/**'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // The conformance suite: speaks only HTTP to a target (TRYON_BASE_URL, or the embedded
          // reference server). One worker, files in sequence: the credit budget and the rate
          // limits are shared by the whole run.
          name: 'conformance',
          include: ['src/suite/**/*.suite.ts'],
          globalSetup: ['src/suite/global-setup.ts'],
          fileParallelism: false,
          isolate: false,
          maxWorkers: 1,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
