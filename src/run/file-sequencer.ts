/**
 * The vitest sequencer of the conformance projects: the files in the order file-order.ts gives,
 * cheapest first in sequence, longest first in parallel.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { fileOrder, longestFirst } from './file-order.ts';

const rank = (order: readonly string[], file: string): number => {
  const name = /([^/]+)\.suite\.[jt]s$/.exec(file)?.[1] ?? '';
  const index = order.indexOf(name);
  return index === -1 ? order.length : index;
};

/** Files in parallel: the project runs more than one worker. */
const parallel = (spec: TestSpecification): boolean => Number(spec.project.config.maxWorkers) > 1;

export class CheapFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort(
      (a, b) =>
        rank(parallel(a) ? longestFirst : fileOrder, a.moduleId) -
        rank(parallel(b) ? longestFirst : fileOrder, b.moduleId),
    );
  }
}
