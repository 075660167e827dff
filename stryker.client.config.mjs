// StrykerJS on the typed client (src/sdk): `npm run mutation:client` (full, about 10 min on two shared cores);
// `npm run mutation:client:ci`, incremental against reports/stryker-client/incremental.json. It extends the
// oracle's config; scores per file land in reports/stryker-client/score.md, and the published figures, with each
// survivor explained, in reports/mutants-client/stryker-sdk.md.
import oracle from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...oracle,
  vitest: { configFile: 'vitest.stryker-client.config.ts', related: true },
  mutate: ['src/sdk/**/*.ts', '!**/*.test.ts'],
  jsonReporter: { fileName: 'reports/stryker-client/mutation.json' },
  htmlReporter: { fileName: 'reports/stryker-client/mutation.html' },
  incrementalFile: 'reports/stryker-client/incremental.json',
};
