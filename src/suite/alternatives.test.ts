import { describe, expect, it } from 'vitest';
import type { TaskMeta } from 'vitest';
import { exercised } from './alternatives.ts';

/** The part of a conformance context `exercised` writes to. */
const fakeContext = () => {
  const meta: TaskMeta = {};
  return { meta, t: { vitest: { task: { meta } } } as unknown as Parameters<typeof exercised>[0] };
};

describe('exercised', () => {
  it('counts each alternative per requirement and dimension in task.meta', () => {
    const { meta, t } = fakeContext();
    exercised(t, 'result format', 'JPEG', ['RES-RESULT-URL-ON-SUCCESS', 'SVC-RESULT-AI-LABEL']);
    exercised(t, 'result format', 'JPEG', ['RES-RESULT-URL-ON-SUCCESS']);
    exercised(t, 'result format', 'PNG', ['RES-RESULT-URL-ON-SUCCESS']);
    exercised(t, 'endpoint', 'POST /tryons/sync', []);
    expect(meta.alternatives).toEqual([
      { requirement: 'RES-RESULT-URL-ON-SUCCESS', dimension: 'result format', alternative: 'JPEG', count: 2 },
      { requirement: 'SVC-RESULT-AI-LABEL', dimension: 'result format', alternative: 'JPEG', count: 1 },
      { requirement: 'RES-RESULT-URL-ON-SUCCESS', dimension: 'result format', alternative: 'PNG', count: 1 },
    ]);
  });
});
