/**
 * The order the conformance files run in: the ones that cost nothing first, then the ones that
 * spend credits, most informative per credit first. On a target without test control the credit
 * budget runs out at the end of a run, not in its middle, so no free check is skipped for it.
 * A parallel run (the embedded server, one instance per worker: no budget to run out of) starts
 * the longest files first, so that the last to end is a short one.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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
  'uploads',
  'scoping',
  'state-machine',
  'idempotency',
  'results',
  'credits',
  'asynchrony',
  'body-rules',
  'retrying-client',
  'contract',
  'rate-limits',
  'routing',
  'ssrf-names',
  'auth',
  'idempotency-key',
];

const rank = (order: readonly string[], file: string): number => {
  const name = /([^/]+)\.suite\.[jt]s$/.exec(file)?.[1] ?? '';
  const index = order.indexOf(name);
  return index === -1 ? order.length : index;
};

/** Files in parallel: the project runs more than one worker. */
const parallel = (spec: TestSpecification): boolean => Number(spec.project.config.maxWorkers) > 1;

export class CheapFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(parallel(a) ? longestFirst : fileOrder, a.moduleId) - rank(parallel(b) ? longestFirst : fileOrder, b.moduleId));
  }
}
