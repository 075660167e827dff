/**
 * The hard stop of the credit budget on a target without test control, where every credit is the user's.
 * By balance, where the run knows where GET /account keeps it: before each start that could be charged,
 * what was spent (balance at enrol − now, over its accounts) plus the starts in flight plus this one must
 * fit; refunds count as the target counts them. Pessimistic otherwise: every start counts as spent unless
 * refused with a 4xx (the spec's "uses no credit"), and nothing is ever refunded.
 * A test that declares it spends nothing (its starts are ones the spec refuses) reserves nothing, so a
 * budget of 0 runs it; its starts still stop once the run has spent past the budget, so a target that
 * charges a refused start overruns the budget by that start at most (one, as tests start one at a time).
 */
export class BudgetExhausted extends Error {
  override readonly name = 'BudgetExhausted';
}

/** What a start ended with, as far as the guard cares. */
export interface StartAnswer {
  readonly response?: { readonly status: number };
}

/** Gives a reservation back; pass the start's exchange so a pessimistic guard can tell a refusal. */
export type Release = (answer?: StartAnswer) => void;

export class SpendGuard {
  readonly #initial = new Map<string, number>();
  #inFlight = 0;
  #counted = 0;
  #free = false;

  /** `readCredits` absent: the pessimistic budget. */
  constructor(
    readonly budget: number,
    private readonly readCredits?: (key: string) => Promise<number>,
  ) {}

  get mode(): 'balance' | 'pessimistic' {
    return this.readCredits ? 'balance' : 'pessimistic';
  }

  /** Notes an account's balance before the run spends from it (nothing to note when pessimistic). */
  async enrol(key: string): Promise<void> {
    if (this.readCredits && !this.#initial.has(key)) this.#initial.set(key, await this.readCredits(key));
  }

  /** Credits spent so far: over every enrolled account as their balances say, or every start counted. */
  async spent(): Promise<number> {
    if (!this.readCredits) return this.#counted;
    let total = 0;
    for (const [key, initial] of this.#initial) total += initial - (await this.readCredits(key));
    return Math.max(0, total);
  }

  /** Says whether the test now starting declared that it spends nothing (its starts then reserve nothing). */
  spendsNothing(free: boolean): void {
    this.#free = free;
  }

  /** Reserves one possible charge; throws BudgetExhausted when it could pass the budget. */
  async acquire(key: string): Promise<Release> {
    await this.enrol(key);
    const reserved = this.#free ? 0 : 1;
    this.#inFlight += reserved;
    const spent = await this.spent();
    if (spent + this.#inFlight > this.budget) {
      this.#inFlight -= reserved;
      const how = this.readCredits
        ? 'as GET /account counts it'
        : 'counting every start that could be charged, since no balance is read';
      throw new BudgetExhausted(`the credit budget of ${this.budget} is used up (${spent} spent by this run, ${how})`);
    }
    let released = false;
    return (answer) => {
      if (released) return;
      released = true;
      this.#inFlight -= reserved;
      if (!this.readCredits && !refused(answer)) this.#counted++;
    };
  }
}

/** A start the target answered with a 4xx: by the spec it was not started and used no credit. */
function refused(answer: StartAnswer | undefined): boolean {
  const status = answer?.response?.status;
  return status !== undefined && status >= 400 && status < 500;
}
