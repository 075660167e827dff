/**
 * The credit budget: a run never spends past it. Every request that may spend a credit reserves one first;
 * one that ends without a charge (an error, a refunded try-on, a replay) is given back, and a settled test's
 * reservation becomes what it really spent (`settle`). Credits held for tests granted them up front
 * (src/run/budget-order.ts) are reserved by nobody else, and become the test's own when it starts (`release`).
 */
export class CreditBudget {
  #reserved = 0;
  readonly #holds = new Map<string, number>();

  constructor(
    readonly limit: number,
    holds: Readonly<Record<string, number>> = {},
  ) {
    for (const [name, credits] of Object.entries(holds)) this.#holds.set(name, credits);
  }

  /** Reserves `n` credits; false (and nothing reserved) when that would pass what is left. */
  tryReserve(n = 1): boolean {
    if (n > this.left) return false;
    this.#reserved += n;
    return true;
  }

  giveBack(n = 1): void {
    this.#reserved = Math.max(0, this.#reserved - n);
  }

  /** The test `name` starts: the credits held for it are free for it to reserve. */
  release(name: string): void {
    this.#holds.delete(name);
  }

  /** Whether credits are held for `name` (it was granted them up front and has not started). */
  holds(name: string): boolean {
    return this.#holds.has(name);
  }

  /**
   * A test settles: of the `reservedByIt` credits it reserved, it really spent `spent` (from the
   * balances, or the spend guard's count). The difference comes back to the budget.
   */
  settle(reservedByIt: number, spent: number): void {
    this.#reserved = Math.max(0, this.#reserved - reservedByIt + Math.max(0, spent));
  }

  /** Credits spent or in use by tests that ran or are running. */
  get spent(): number {
    return this.#reserved;
  }

  /** Credits held for tests granted them that have not started yet. */
  get held(): number {
    let n = 0;
    for (const credits of this.#holds.values()) n += credits;
    return n;
  }

  /** Credits nobody has reserved or holds. */
  get left(): number {
    return Math.max(0, this.limit - this.#reserved - this.held);
  }

  /** The figures, for a skip reason: spent, held for tests still to run, left. */
  describe(): string {
    const holds = this.#holds.size;
    return `of the budget of ${this.limit}, ${this.spent} spent or in use, ${this.held} held for ${holds} higher-value test${holds === 1 ? '' : 's'} still to run, ${this.left} left`;
  }
}
