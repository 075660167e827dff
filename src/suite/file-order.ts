/**
 * The order the conformance files run in: the ones that cost nothing first, then the ones that
 * spend credits, most informative per credit first. On a target without test control the credit
 * budget runs out at the end of a run, not in its middle, so no free check is skipped for it.
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

const rank = (file: string): number => {
  const name = /([^/]+)\.suite\.[jt]s$/.exec(file)?.[1] ?? '';
  const index = fileOrder.indexOf(name);
  return index === -1 ? fileOrder.length : index;
};

export class CheapFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a.moduleId) - rank(b.moduleId));
  }
}
