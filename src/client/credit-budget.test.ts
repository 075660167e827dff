/** The credit budget: reservations never pass the limit, and what ends without a charge comes back. */
import { describe, expect, it } from 'vitest';
import { CreditBudget } from './credit-budget.ts';

describe('CreditBudget', () => {
  it.each<[string, (b: CreditBudget) => unknown[], unknown[]]>([
    ['reserves up to the limit, then refuses', (b) => [b.tryReserve(2), b.tryReserve(1), b.tryReserve(1), b.spent, b.remaining], [true, true, false, 3, 0]],
    ['refuses a reservation larger than what is left, and reserves nothing', (b) => [b.tryReserve(2), b.tryReserve(2), b.spent], [true, false, 2]],
    ['gives back what ended without a charge', (b) => [b.tryReserve(3), (b.giveBack(2), b.spent), b.tryReserve(2), b.remaining], [true, 1, true, 0]],
    ['never goes below zero on giving back', (b) => [(b.giveBack(5), b.spent), b.remaining], [0, 3]],
  ])('%s', (_name, act, want) => {
    expect(act(new CreditBudget(3))).toEqual(want);
  });

  it('a budget of 0 reserves nothing', () => {
    const b = new CreditBudget(0);
    expect([b.tryReserve(1), b.tryReserve(0), b.remaining]).toEqual([false, true, 0]);
  });
});
