/** The order of value the credit budget is granted in: the happy path first, then the ledger, then the rest. */
import { describe, expect, it } from 'vitest';
import type { Value } from '../suite/cost.ts';
import { allotCredits, type CreditCandidate } from './budget-order.ts';

const t = (name: string, credits: number, value: Value = 'rest'): CreditCandidate => ({ name, credits, value });

describe('allotCredits', () => {
  it('grants the happy path first, then the ledger, then the rest, whatever the file order', () => {
    const a = allotCredits(
      [
        t('content-type rule', 3),
        t('refunds', 2, 'ledger'),
        t('result url', 1, 'happy-path'),
        t('sync success', 1, 'happy-path'),
      ],
      5,
    );
    expect(a.granted.map((g) => g.name)).toEqual(['result url', 'sync success', 'refunds']);
    expect(a.refused).toEqual([{ name: 'content-type rule', credits: 3, value: 'rest', budgetThatRunsIt: 7 }]);
    expect(a.total).toBe(4);
  });

  it('passes over a test that does not fit and grants a cheaper one after it', () => {
    const a = allotCredits([t('big', 6), t('small', 1)], 4);
    expect(a.granted.map((g) => g.name)).toEqual(['small']);
    expect(a.refused.map((r) => [r.name, r.budgetThatRunsIt])).toEqual([['big', 7]]);
  });

  it('within one value, the cheaper test first; ties keep the given order', () => {
    const a = allotCredits([t('b', 2, 'ledger'), t('a', 1, 'ledger'), t('c', 2, 'ledger')], 3);
    expect(a.granted.map((g) => g.name)).toEqual(['a', 'b']);
  });

  it('grants nothing to tests that spend nothing (they always run), and nothing from a budget of 0', () => {
    expect(allotCredits([t('free', 0), t('paid', 1, 'happy-path')], 0)).toEqual({
      granted: [],
      refused: [{ name: 'paid', credits: 1, value: 'happy-path', budgetThatRunsIt: 1 }],
      total: 0,
    });
  });
});
