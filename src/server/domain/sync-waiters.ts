/**
 * Held sync requests (spec: POST /tryons/sync). A waiter is woken by the generation queue's
 * "finished" notice, never by polling the store, or by its deadline.
 *
 * A held request costs one small record here: its try-on id, its deadline and the callback that
 * answers it (issue 15: ten thousand held requests under 250 MiB). Deadlines are kept in one list per
 * wait length, in the order they fall due (every waiter of a list waits as long), behind one timer
 * per list: no timer, promise or abort signal per request. A waiter let go (its client left) is
 * unlinked at once and keeps nothing alive.
 */
export type WaitOutcome = 'finished' | 'timeout';

/** A held request, as `hold` gives it back; pass it to `release` to let it go unanswered. */
export interface Waiter {
  readonly tryOnId: string;
}

class Held implements Waiter {
  prev: Held | undefined = undefined;
  next: Held | undefined = undefined;

  constructor(
    readonly tryOnId: string,
    readonly due: number,
    readonly list: DeadlineList,
    /** Undefined once woken or released. */
    public wake: ((outcome: WaitOutcome) => void) | undefined,
  ) {}
}

/** The waiters of one wait length, oldest (first due) first, and the timer of the first. */
class DeadlineList {
  head: Held | undefined = undefined;
  tail: Held | undefined = undefined;
  timer: NodeJS.Timeout | undefined = undefined;

  constructor(readonly ms: number) {}
}

export class SyncWaiters {
  readonly #byTryOn = new Map<string, Held[]>();
  readonly #lists = new Map<number, DeadlineList>();
  #size = 0;

  /** Holds a request for `tryOnId`: `wake` is called once, with 'finished' or with 'timeout' after `ms`. */
  hold(tryOnId: string, ms: number, wake: (outcome: WaitOutcome) => void): Waiter {
    let list = this.#lists.get(ms);
    if (!list) {
      list = new DeadlineList(ms);
      this.#lists.set(ms, list);
    }
    const held = new Held(tryOnId, performance.now() + ms, list, wake);
    if (list.tail) {
      list.tail.next = held;
      held.prev = list.tail;
    } else {
      list.head = held;
    }
    list.tail = held;
    if (!list.timer) this.#arm(list);
    const same = this.#byTryOn.get(tryOnId);
    if (same) same.push(held);
    else this.#byTryOn.set(tryOnId, [held]);
    this.#size++;
    return held;
  }

  /** Lets a held request go without waking it (its client went away). Safe to call more than once. */
  release(waiter: Waiter): void {
    this.#unlink(waiter as Held);
  }

  /** Wakes every waiter of a try-on that reached `success` or `failed`. */
  notify(tryOnId: string): void {
    for (const held of [...(this.#byTryOn.get(tryOnId) ?? [])]) this.#settle(held, 'finished');
  }

  /** Requests held right now. */
  get size(): number {
    return this.#size;
  }

  #settle(held: Held, outcome: WaitOutcome): void {
    const wake = held.wake;
    if (!wake) return;
    this.#unlink(held);
    wake(outcome);
  }

  #unlink(held: Held): void {
    if (!held.wake) return;
    held.wake = undefined;
    this.#size--;
    const { list } = held;
    if (held.prev) held.prev.next = held.next;
    else list.head = held.next;
    if (held.next) held.next.prev = held.prev;
    else list.tail = held.prev;
    held.prev = held.next = undefined;
    if (!list.head) {
      clearTimeout(list.timer);
      list.timer = undefined;
      this.#lists.delete(list.ms);
    }
    const same = this.#byTryOn.get(held.tryOnId);
    if (same) {
      const at = same.indexOf(held);
      if (at >= 0) same.splice(at, 1);
      if (same.length === 0) this.#byTryOn.delete(held.tryOnId);
    }
  }

  /** Sets the list's timer for its first waiter (the list's timer is unset, and its head is live). */
  #arm(list: DeadlineList): void {
    const head = list.head;
    if (!head) return;
    list.timer = setTimeout(() => this.#expire(list), Math.max(0, head.due - performance.now()));
  }

  #expire(list: DeadlineList): void {
    list.timer = undefined;
    // A timer may fire up to a millisecond before the due time it was set from (it counts whole ms).
    const now = performance.now() + 1;
    while (list.head && list.head.due <= now) this.#settle(list.head, 'timeout');
    if (list.head && !list.timer) this.#arm(list);
  }
}
