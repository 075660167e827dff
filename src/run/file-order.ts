/**
 * The order the conformance files run in: the ones that cost nothing first, then the ones that
 * spend credits, most informative per credit first. On a target without test control the credit
 * budget runs out at the end of a run, not in its middle, so no free check is skipped for it.
 * A parallel run (the embedded server, one instance per worker: no budget to run out of) starts
 * the longest files first, so that the last to end is a short one. The sequencer that applies them
 * is file-sequencer.ts (this file stays free of vitest, for the plan).
 */
export const fileOrder: readonly string[] = [
  'auth',
  'routing',
  'idempotency-key',
  'body-rules',
  'uploads',
  'image-urls',
  'ssrf-names',
  'rate-limits',
  'retrying-client',
  'contract',
  'idempotency',
  'credits',
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
  'scoping',
  'contract',
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

