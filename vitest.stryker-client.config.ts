import { defineConfig } from 'vitest/config';

// The typed client's tests that StrykerJS runs (stryker.client.config.mjs): its fast ones against scripted
// loopback servers. client.test.ts and client-grade.test.ts start the reference server and stay out.
export default defineConfig({
  test: {
    include: [
      'tests/sdk/client-{retries,retry-after,timeouts,guard,polling,surface,options,transport,details,hostile,signal}.test.ts',
      'src/sdk/**/*.test.ts',
    ],
    testTimeout: 30_000,
  },
});
