/** The credit budget's skip reason: its figures, and a sentence that reads right for one test or several. */
import { describe, expect, it } from 'vitest';
import { CreditBudget } from './credit-budget.ts';

describe('CreditBudget.describe()', () => {
  it('names one higher-value test in the singular', () => {
    const b = new CreditBudget(10, { a: 3 });
    b.tryReserve(2);
    expect(b.describe()).toBe(
      'of the budget of 10, 2 spent or in use, 3 held for 1 higher-value test still to run, 5 left',
    );
  });

  it('names several in the plural, and none as zero tests', () => {
    expect(new CreditBudget(10, { a: 1, b: 2 }).describe()).toBe(
      'of the budget of 10, 0 spent or in use, 3 held for 2 higher-value tests still to run, 7 left',
    );
    expect(new CreditBudget(4).describe()).toBe(
      'of the budget of 4, 0 spent or in use, 0 held for 0 higher-value tests still to run, 4 left',
    );
  });
});
