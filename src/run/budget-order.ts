/**
 * Who gets the credit budget, decided before anything is sent: the budget buys coverage in order of value.
 * Tests that spend credits are ranked by the value they declare (the happy path, then the ledger and refunds,
 * then the rest), the cheaper first within a rank; tests that spend nothing always run. Credits are held for
 * granted tests until they run; one not granted still runs if, at its turn, what is left is enough.
 */

import { valueRanks, type Value } from '../suite/cost.ts';

export interface CreditCandidate {
  readonly name: string;
  readonly credits: number;
  readonly value: Value;
}

export interface Allotment {
  /** Credits granted up front, by test name, in the order of value. */
  readonly granted: ReadonlyArray<{ readonly name: string; readonly credits: number; readonly value: Value }>;
  /** Tests that spend credits and were not granted any, with the budget that would have run each. */
  readonly refused: ReadonlyArray<{
    readonly name: string;
    readonly credits: number;
    readonly value: Value;
    readonly budgetThatRunsIt: number;
  }>;
  /** The credits granted in all. */
  readonly total: number;
}

/** The order of value: rank, then cheaper first, then the order given (file order). */
export function byValue<T extends CreditCandidate>(tests: readonly T[]): T[] {
  return tests
    .map((test, index) => ({ test, index }))
    .sort(
      (a, b) =>
        valueRanks.indexOf(a.test.value) - valueRanks.indexOf(b.test.value) ||
        a.test.credits - b.test.credits ||
        // Stryker disable next-line ArithmeticOperator: V8 compares a later item to an earlier, so a sum keeps order
        a.index - b.index,
    )
    .map((x) => x.test);
}

/**
 * Grants `budget` credits to the tests that spend some, in the order of value. A test that does not
 * fit is passed over (a cheaper one after it may still fit), and told what budget would run it: the
 * credits granted before it in that order, plus its own.
 */
export function allotCredits(tests: readonly CreditCandidate[], budget: number): Allotment {
  const granted: Array<Allotment['granted'][number]> = [];
  const refused: Array<Allotment['refused'][number]> = [];
  let total = 0;
  let wanted = 0;
  for (const test of byValue(tests.filter((t) => t.credits > 0))) {
    wanted += test.credits;
    if (total + test.credits <= budget) {
      total += test.credits;
      granted.push({ name: test.name, credits: test.credits, value: test.value });
    } else {
      refused.push({ name: test.name, credits: test.credits, value: test.value, budgetThatRunsIt: wanted });
    }
  }
  return { granted, refused, total };
}
