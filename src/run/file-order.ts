/**
 * The order the conformance files run in: free ones first, then those that spend credits, most informative
 * per credit first, so a budget runs out at the end of a run and no free check is skipped for it. A parallel
 * run (embedded: no budget) starts the longest files first, so the last to end is a short one.
 * file-sequencer.ts applies the order (this file stays free of vitest, for the plan).
 */
export const fileOrder: readonly string[] = [
  'auth',
  'routing',
  'idempotency-key',
  'body-rules',
  'uploads',
  'upload-verdicts',
  'image-urls',
  'ssrf-names',
  'rate-limits',
  'retrying-client',
  'contract',
  'idempotency',
  'credits',
  'refused-starts',
  'scoping',
  'results',
  'sync',
  'asynchrony',
  'state-machine',
];

/** The files of a parallel run, longest first (as measured in a parallel run on the embedded server). */
export const longestFirst: readonly string[] = [
  'image-urls',
  'sync',
  'idempotency',
  'state-machine',
  'uploads',
  'asynchrony',
  'refused-starts',
  'scoping',
  'contract',
  'upload-verdicts',
  'results',
  'body-rules',
  'credits',
  'rate-limits',
  'routing',
  'idempotency-key',
  'ssrf-names',
  'retrying-client',
  'auth',
];
