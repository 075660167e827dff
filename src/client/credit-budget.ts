/**
 * The credit budget (design brief, "Budget"): a run never spends past it. Every request that may
 * spend a credit reserves one first; a reservation that ends without a charge (an error, a failed
 * and refunded try-on, a replay) is given back.
 */
export class CreditBudget {
  #reserved = 0;

  constructor(readonly limit: number) {}

  /** Reserves `n` credits; false (and nothing reserved) when that would pass the limit. */
  tryReserve(n = 1): boolean {
    if (this.#reserved + n > this.limit) return false;
    this.#reserved += n;
    return true;
  }

  giveBack(n = 1): void {
    this.#reserved = Math.max(0, this.#reserved - n);
  }

  get spent(): number {
    return this.#reserved;
  }

  get remaining(): number {
    return this.limit - this.#reserved;
  }
}
