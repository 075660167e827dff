/** The credit budget: reservations never pass the limit, and what ends without a charge comes back. */
import { describe, expect, it } from 'vitest';
import { CreditBudget } from './credit-budget.ts';

describe('CreditBudget', () => {
  it.each<[string, (b: CreditBudget) => unknown[], unknown[]]>([
    [
      'reserves up to the limit, then refuses',
      (b) => [b.tryReserve(2), b.tryReserve(1), b.tryReserve(1), b.spent, b.left],
      [true, true, false, 3, 0],
    ],
    [
      'refuses a reservation larger than what is left, and reserves nothing',
      (b) => [b.tryReserve(2), b.tryReserve(2), b.spent],
      [true, false, 2],
    ],
    [
      'gives back what ended without a charge',
      (b) => [b.tryReserve(3), (b.giveBack(2), b.spent), b.tryReserve(2), b.left],
      [true, 1, true, 0],
    ],
    ['never goes below zero on giving back', (b) => [(b.giveBack(5), b.spent), b.left], [0, 3]],
  ])('%s', (_name, act, want) => {
    expect(act(new CreditBudget(3))).toEqual(want);
  });

  it('holds credits for a test granted them until it starts; nobody else reserves them', () => {
    const b = new CreditBudget(8, { 'happy path': 3, ledger: 3 });
    expect([b.left, b.tryReserve(3), b.holds('ledger')]).toEqual([2, false, true]);
    b.release('happy path');
    expect([b.left, b.tryReserve(3), b.left, b.holds('happy path')]).toEqual([5, true, 2, false]);
    expect(b.describe()).toBe(
      'of the budget of 8, 3 spent or in use, 3 held for 1 higher-value test still to run, 2 left',
    );
  });

  it('settles a test at what it really spent: the rest of its reservations comes back', () => {
    const b = new CreditBudget(8);
    b.tryReserve(2);
    b.tryReserve(4);
    b.settle(4, 1);
    expect([b.spent, b.left]).toEqual([3, 5]);
  });

  it('a budget of 0 reserves nothing', () => {
    const b = new CreditBudget(0);
    expect([b.tryReserve(1), b.tryReserve(0), b.left]).toEqual([false, true, 0]);
  });
});
