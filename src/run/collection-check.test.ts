import { describe, expect, it } from 'vitest';
import type { PlannedTest } from './plan.ts';
import { collectionDifference, stableJson } from './collection-check.ts';

const test = (name: string, file = 'src/suite/a.suite.ts', credits = 0): PlannedTest => ({
  name,
  file,
  requirements: [],
  needs: [],
  cost: { credits, starts: 1, polls: 0, uploads: 0 },
  value: 'rest',
});

describe('collectionDifference', () => {
  it('finds none between the same tests, whatever their order and key order', () => {
    const kept = [test('a > one'), test('a > two')];
    const reordered = { ...test('a > one'), cost: { uploads: 0, polls: 0, starts: 1, credits: 0 } };
    expect(collectionDifference(kept, [test('a > two'), reordered], false)).toBeUndefined();
  });

  it('names tests planned but not run, run but not planned, and declared otherwise', () => {
    const kept = [test('a > one'), test('a > two'), test('a > three')];
    const ran = [test('a > one', undefined, 2), test('a > three'), test('a > four')];
    expect(collectionDifference(kept, ran, false)).toBe(
      'planned, not in the run: 1 ("a > two"); in the run, not planned: 1 ("a > four"); declared otherwise: 1 ("a > one")',
    );
  });

  it('compares only the files a stopped run collected, and still every test of those', () => {
    const kept = [test('a > one'), test('b > one', 'src/suite/b.suite.ts')];
    expect(collectionDifference(kept, [test('a > one')], true)).toBeUndefined();
    expect(collectionDifference(kept, [test('a > one')], false)).toMatch(/^planned, not in the run: 1/);
    expect(collectionDifference([...kept, test('a > two')], [test('a > one')], true)).toMatch(/"a > two"/);
  });

  it('shortens a long list to three names', () => {
    const kept = ['1', '2', '3', '4', '5'].map((n) => test(n));
    expect(collectionDifference(kept, [], false)).toBe('planned, not in the run: 5 ("1", "2", "3", …)');
  });
});

describe('stableJson', () => {
  it('gives equal text for equal values with keys in any order, nested too', () => {
    expect(stableJson({ b: 1, a: { d: [1, { f: 1, e: 2 }], c: null } })).toBe(
      stableJson({ a: { c: null, d: [1, { e: 2, f: 1 }] }, b: 1 }),
    );
    expect(stableJson({ a: 1 })).not.toBe(stableJson({ a: 2 }));
  });
});
