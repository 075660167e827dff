import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { fileOrder, longestFirst } from './file-order.ts';
import { CheapFirstSequencer } from './file-sequencer.ts';

const specs = (names: readonly string[], maxWorkers: number): TestSpecification[] =>
  names.map(
    (name) =>
      ({
        moduleId: `/pkg/src/suite/${name}.suite.ts`,
        project: { config: { maxWorkers } },
      }) as unknown as TestSpecification,
  );
const names = (sorted: TestSpecification[]): string[] =>
  sorted.map((s) => /([^/]+)\.suite\.ts$/.exec(s.moduleId)?.[1] ?? '');

describe('CheapFirstSequencer', () => {
  const sequencer = new CheapFirstSequencer({} as Vitest);
  const shuffled = [...fileOrder].reverse();

  it('runs the cheap files first, one after another (any target)', async () => {
    expect(names(await sequencer.sort(specs(shuffled, 1)))).toEqual(fileOrder);
  });

  it('starts the longest files first when the files run in parallel (the embedded server)', async () => {
    expect(names(await sequencer.sort(specs(shuffled, 4)))).toEqual(longestFirst);
  });

  it('orders the same files either way', () => {
    expect([...longestFirst].sort()).toEqual([...fileOrder].sort());
  });
});
