/**
 * Items that each wait a given time before they are handed on, for the generation queue's engine latency,
 * so a pending try-on costs no timer, closure or set entry. One first-in-first-out list per wait length: its
 * items fall due in order, so only its first needs a timer; an item costs two array slots (item, due time).
 */
export class DueLists<T> {
  readonly #lists = new Map<number, DueList<T>>();
  #size = 0;

  /** `onDue` is called once per item when its wait is over, oldest first within a wait length. */
  constructor(private readonly onDue: (item: T) => void) {}

  /** Hands `item` to `onDue` after `ms`. */
  add(item: T, ms: number): void {
    let list = this.#lists.get(ms);
    if (!list) {
      list = new DueList<T>(ms);
      this.#lists.set(ms, list);
    }
    list.items.push(item);
    list.dues.push(performance.now() + ms);
    this.#size++;
    if (!list.timer) this.#arm(list);
  }

  /** Drops every item still waiting, and every timer. */
  clear(): void {
    for (const list of this.#lists.values()) clearTimeout(list.timer);
    this.#lists.clear();
    this.#size = 0;
  }

  /** Items still waiting. */
  get size(): number {
    return this.#size;
  }

  /** Sets the list's timer for its first item (the list has one, and no timer). */
  #arm(list: DueList<T>): void {
    const due = list.dues[list.head];
    if (due === undefined) return;
    list.timer = setTimeout(() => this.#expire(list), Math.max(0, due - performance.now()));
  }

  #expire(list: DueList<T>): void {
    list.timer = undefined;
    // A timer may fire up to a millisecond before the due time it was set from (it counts whole ms).
    const now = performance.now() + 1;
    // Items added from inside onDue wait for their own turn, as a timer set then would.
    const end = list.items.length;
    while (list.head < end && (list.dues[list.head] ?? now) <= now) {
      const item = list.items[list.head] as T;
      list.items[list.head] = undefined as T;
      list.head++;
      this.#size--;
      this.onDue(item);
      // clear() from inside onDue: this list is gone.
      if (this.#lists.get(list.ms) !== list) return;
    }
    if (list.head === list.items.length) {
      this.#lists.delete(list.ms);
      return;
    }
    // Drop the items handed on now and then, so a long-lived list does not grow for ever.
    if (list.head > 1024 && list.head * 2 > list.items.length) {
      list.items = list.items.slice(list.head);
      list.dues = list.dues.slice(list.head);
      list.head = 0;
    }
    if (!list.timer) this.#arm(list);
  }
}

/** The items of one wait length, from `head` on still waiting, and the timer of the first. */
class DueList<T> {
  items: T[] = [];
  dues: number[] = [];
  head = 0;
  timer: NodeJS.Timeout | undefined = undefined;

  constructor(readonly ms: number) {}
}
