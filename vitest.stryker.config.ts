import { defineConfig } from 'vitest/config';

// The unit tests that judge the files StrykerJS mutates (stryker.config.mjs): the suite's oracle. Only
// these run under Stryker, so a mutant never waits on the slow, unrelated tests.
export default defineConfig({
  test: {
    include: [
      'src/checks/**/*.test.ts',
      'src/report/verdict*.test.ts',
      'src/report/model.test.ts',
      'src/suite/rules*.test.ts',
      'src/client/{pacer,retry,credit-budget}*.test.ts',
      'src/run/{budget-order,plan,estimate}*.test.ts',
    ],
    testTimeout: 30_000,
  },
});
