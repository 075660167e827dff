import { defineConfig } from 'vitest/config';

// Two projects: `unit` runs in `npm test`; `browser` needs Debian's chromium
// and runs in `npm run test:browser` (and in .ci/run).
export default defineConfig({
  test: {
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
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
