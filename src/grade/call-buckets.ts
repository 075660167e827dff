/**
 * Where the call log keeps its records, bounded per caller so that no caller's flood can push out,
 * or slow the grade of, another account: each account keeps its latest requests in its own ring;
 * requests no account owns (no key, an unknown key, a CORS preflight) share one small ring; an
 * account past the number of accounts kept is not recorded. What was let go is counted.
 */

/** How much the call log keeps. */
export interface RecordLimits {
  /** The latest requests kept per account. */
  readonly perAccount: number;
  /** The latest requests kept, all together, of callers without an account. */
  readonly withoutAccount: number;
  /** The accounts recorded; the requests of any further account are not kept. */
  readonly accounts: number;
}

export const defaultRecordLimits: RecordLimits = { perAccount: 2_000, withoutAccount: 1_000, accounts: 500 };

/** Requests recorded and then let go (the oldest past a bound), for the grade to say so. */
export interface NotKept {
  readonly limits: RecordLimits;
  /** Per account id: its oldest requests past `perAccount`. */
  readonly byAccount: ReadonlyMap<string, number>;
  /** The oldest requests past `withoutAccount` of the callers without an account. */
  readonly withoutAccount: number;
  /** Requests of accounts past `accounts`. */
  readonly beyondAccounts: number;
}

/** At most `limit` items, oldest first; pushing past the limit lets the oldest go and counts it. */
export class Ring<T> {
  readonly #items: T[] = [];
  #oldest = 0;
  #dropped = 0;

  constructor(readonly limit: number) {}

  /** Items let go so far. */
  get dropped(): number {
    return this.#dropped;
  }

  push(item: T): void {
    if (this.#items.length < this.limit) {
      this.#items.push(item);
      return;
    }
    this.#items[this.#oldest] = item;
    this.#oldest = (this.#oldest + 1) % this.limit;
    this.#dropped++;
  }

  /** The items, oldest first. */
  toArray(): T[] {
    return [...this.#items.slice(this.#oldest), ...this.#items.slice(0, this.#oldest)];
  }
}

/** The records of the call log, by the account that owns them. */
export class CallBuckets<T extends Started & { readonly caller: string }> {
  readonly #accounts = new Map<string, Ring<T>>();
  readonly #others: Ring<T>;
  #beyondAccounts = 0;

  constructor(readonly limits: RecordLimits = defaultRecordLimits) {
    this.#others = new Ring(limits.withoutAccount);
  }

  /** Keeps a finished record: under its account when `account` is true, else with the callers without one. */
  add(record: T, account: boolean): void {
    if (!account) return this.#others.push(record);
    let ring = this.#accounts.get(record.caller);
    if (ring === undefined) {
      if (this.#accounts.size >= this.limits.accounts) {
        this.#beyondAccounts++;
        return;
      }
      ring = new Ring(this.limits.perAccount);
      this.#accounts.set(record.caller, ring);
    }
    ring.push(record);
  }

  /** The kept records of one caller, or of all, in the order they started. */
  records(onlyCaller?: string): T[] {
    if (onlyCaller === undefined) {
      return inStartOrder([...this.#accounts.values(), this.#others].flatMap((ring) => ring.toArray()));
    }
    const ring = this.#accounts.get(onlyCaller);
    return inStartOrder(ring ? ring.toArray() : this.#others.toArray().filter((r) => r.caller === onlyCaller));
  }

  notKept(): NotKept {
    const byAccount = new Map<string, number>();
    for (const [caller, ring] of this.#accounts) if (ring.dropped > 0) byAccount.set(caller, ring.dropped);
    const withoutAccount = this.#others.dropped;
    return { limits: this.limits, byAccount, withoutAccount, beyondAccounts: this.#beyondAccounts };
  }
}

/** What orders records: when each started, then the order they were numbered in (for the same instant). */
export interface Started {
  readonly seq: number;
  readonly startedAt: number;
}

/** Compares two records by when they started: the server numbers them as they arrive, a proxy as they end. */
export function byStart(a: Started, b: Started): number {
  return a.startedAt - b.startedAt || a.seq - b.seq;
}

/** A ring keeps the order records finished in; the rules read them in the order they started. */
function inStartOrder<T extends Started>(records: T[]): T[] {
  return records.sort(byStart);
}
