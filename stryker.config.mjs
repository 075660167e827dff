// StrykerJS: mutation testing of the suite's oracle (`npm run mutation`, full; `npm run mutation:ci`,
// incremental against reports/stryker/incremental.json). One area alone:
// `npm run mutation -- --mutate 'src/client/pacer.ts,src/run/*.ts'`. Scores per file: reports/stryker/score.md.
// The typed client (src/sdk) has its own slower tests, so its run is a config of its own that extends this one.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts', related: true },
  coverageAnalysis: 'perTest',
  // Two shared cores: one runner each.
  concurrency: 2,
  mutate: [
    'src/checks/**/*.ts',
    'src/report/verdict.ts',
    'src/suite/rules.ts',
    'src/client/pacer.ts',
    'src/client/retry.ts',
    'src/client/credit-budget.ts',
    'src/run/budget-order.ts',
    'src/run/plan.ts',
    'src/run/estimate.ts',
    '!**/*.test.ts',
    '!**/__fixtures__/**',
  ],
  plugins: ['@stryker-mutator/vitest-runner', './scripts/stryker/score-reporter.mjs'],
  reporters: ['progress', 'clear-text', 'json', 'html', 'score-markdown'],
  jsonReporter: { fileName: 'reports/stryker/mutation.json' },
  htmlReporter: { fileName: 'reports/stryker/mutation.html' },
  incrementalFile: 'reports/stryker/incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 80, break: null },
  timeoutMS: 10_000,
};
