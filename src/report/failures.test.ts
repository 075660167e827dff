/** How a failure reads: a sentence of what was expected and what came, never matcher internals or fast-check's dump. */
import { describe, expect, it } from 'vitest';
import { failureOfError, failureOfRule } from './failures.ts';

const dump =
  'Property failed after 3 tests\n{ seed: 77, path: "2:0:1", endOnFailure: true }\nCounterexample: [{"raw":"["}]\nShrunk 2 time(s)\n\nHint: Enable verbose mode in order to have the list of all failing values encountered during the run';

describe('failure texts read as sentences', () => {
  it('a negated assertion: what it must not be, and what came', () => {
    const f = failureOfError(
      [{ message: 'request 13 of 12: 429 RATE_LIMITED: expected 429 not to be 429 // Object.is equality' }],
      {},
    );
    expect(f).toEqual({
      message: 'request 13 of 12: 429 RATE_LIMITED: expected anything but 429, received 429',
      expected: 'anything but 429',
      received: '429',
    });
  });

  it("a broken rule whose message or values carry fast-check's report: the counterexample and replay line only", () => {
    const f = failureOfRule({
      requirement: 'ERR-MALFORMED-JSON-IMPL-DEFINED',
      message: `POST /tryons: expected 400, received 500\n${dump}\nReplay: --seed 77 --path 2:0:1`,
      expected: '400',
      actual: dump,
    });
    expect(f.message).toBe(
      'POST /tryons: expected 400, received 500\nCounterexample: [{"raw":"["}] (shrunk 2 times)\nReplay: --seed 77 --path 2:0:1',
    );
    expect(f.received).toBe('Counterexample: [{"raw":"["}] (shrunk 2 times)\nReplay: --seed 77 --path 2:0:1');
  });

  it('a failed property with no assertion kept: one sentence with the counterexample', () => {
    const f = failureOfError([{ message: `[CREATE-ERROR-LIST] ${dump}\nReplay: --seed 77 --path 2:0:1` }], {
      counterexample: dump,
    });
    expect(f.message).toBe('the property failed on [{"raw":"["}]');
  });
});
