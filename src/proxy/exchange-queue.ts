/**
 * Finished exchanges waiting for their observers. The judging of a loop's turn runs once that turn's
 * I/O is done (setImmediate), in one batch, so the proxy first forwards what is waiting and the
 * upstream works while the proxy judges. Every exchange is observed, in the order it finished; none
 * is dropped. The wait is bounded: past `maxExchanges` waiting, or `maxBytes` of captured bodies,
 * the waiting ones are observed at once, before the proxy goes on (back-pressure, not loss).
 */

export interface QueueBounds {
  /** Exchanges waiting at most. */
  readonly maxExchanges: number;
  /** Captured body bytes held by waiting exchanges at most. */
  readonly maxBytes: number;
}

export const defaultQueueBounds: QueueBounds = Object.freeze({ maxExchanges: 512, maxBytes: 16 * 1024 * 1024 });

export class ExchangeQueue<T> {
  readonly #observe: (item: T) => void;
  readonly #sizeOf: (item: T) => number;
  readonly #bounds: QueueBounds;
  #waiting: T[] = [];
  #bytes = 0;
  #scheduled = false;

  /** A queue that hands each item to `observe`; `sizeOf` says how many captured bytes an item holds. */
  constructor(observe: (item: T) => void, sizeOf: (item: T) => number, bounds: QueueBounds = defaultQueueBounds) {
    this.#observe = observe;
    this.#sizeOf = sizeOf;
    this.#bounds = bounds;
  }

  /** Exchanges waiting now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Takes a finished exchange; it is observed after this turn's I/O, or at once when the queue is full. */
  push(item: T): void {
    const size = this.#sizeOf(item);
    this.#waiting.push(item);
    this.#bytes += size;
    if (this.#waiting.length >= this.#bounds.maxExchanges || this.#bytes >= this.#bounds.maxBytes) {
      this.flush();
      return;
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#drain);
    }
  }

  /** Observes every waiting exchange now, in order (before a report is read, or when the proxy closes). */
  flush(): void {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      this.#bytes = 0;
      for (const item of batch) this.#observe(item);
    }
  }

  readonly #drain = (): void => {
    this.#scheduled = false;
    this.flush();
  };
}
