/**
 * The hard stop of the credit budget (design brief, "Budget": the run never spends past it). On a
 * target without test control, every start that could be charged first reads the real balances
 * with GET /account: what the run has spent so far (balance at connect − balance now, over every
 * account it uses), plus the starts still in flight, plus this one, must stay within the budget.
 * Refunds count in the run's favour, exactly as the target counts them.
 */
export class BudgetExhausted extends Error {
  override readonly name = 'BudgetExhausted';
}

export class SpendGuard {
  readonly #initial = new Map<string, number>();
  #inFlight = 0;

  constructor(
    readonly budget: number,
    private readonly readCredits: (key: string) => Promise<number>,
  ) {}

  /** Notes an account's balance before the run spends from it. */
  async enrol(key: string): Promise<void> {
    if (!this.#initial.has(key)) this.#initial.set(key, await this.readCredits(key));
  }

  /** Credits spent so far over every enrolled account, as their balances say. */
  async spent(): Promise<number> {
    let total = 0;
    for (const [key, initial] of this.#initial) total += initial - (await this.readCredits(key));
    return Math.max(0, total);
  }

  /** Reserves one possible charge; throws BudgetExhausted when it could pass the budget. */
  async acquire(key: string): Promise<() => void> {
    await this.enrol(key);
    this.#inFlight++;
    const spent = await this.spent();
    if (spent + this.#inFlight > this.budget) {
      this.#inFlight--;
      throw new BudgetExhausted(`the credit budget of ${this.budget} is used up (${spent} spent by this run, as GET /account counts it)`);
    }
    let released = false;
    return () => {
      if (!released) this.#inFlight--;
      released = true;
    };
  }
}
