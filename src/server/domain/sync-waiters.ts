/**
 * Held sync requests (spec: POST /tryons/sync). A waiter is woken by the generation queue's "finished" notice,
 * never by polling the store, or by its deadline. A held request costs one small record (try-on id, deadline,
 * reply) and no closure, timer, promise or abort signal of its own: deadlines sit in one list per wait length
 * behind one timer, and the waiters of a try-on are chained from the first. A waiter let go is unlinked at once.
 */
export type WaitOutcome = 'finished' | 'timeout';

/** A held request, as `hold` gives it back (and `wake` is given); pass it to `release` to let it go unanswered. */
export interface Waiter<T = unknown> {
  readonly tryOnId: string;
  /** What `hold` was given to answer the request with (the route's reply). */
  readonly subject: T;
}

/** Answers a woken waiter; one function for many waiters, so a waiter holds no closure of its own. */
export type Wake<T> = (waiter: Waiter<T>, outcome: WaitOutcome) => void;

class Held implements Waiter {
  prev: Held | undefined = undefined;
  next: Held | undefined = undefined;
  /** The next waiter of the same try-on. */
  same: Held | undefined = undefined;

  constructor(
    readonly tryOnId: string,
    readonly subject: unknown,
    readonly due: number,
    readonly list: DeadlineList,
    /** Undefined once woken or released. */
    public wake: Wake<unknown> | undefined,
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
  /** The first waiter of each try-on; the others follow it through `same`. */
  readonly #byTryOn = new Map<string, Held>();
  readonly #lists = new Map<number, DeadlineList>();
  #size = 0;

  /** Holds a request for `tryOnId`: `wake` is called once, with 'finished' or with 'timeout' after `ms`. */
  hold<T>(tryOnId: string, ms: number, subject: T, wake: Wake<T>): Waiter<T> {
    let list = this.#lists.get(ms);
    if (!list) {
      list = new DeadlineList(ms);
      this.#lists.set(ms, list);
    }
    // `wake` is only ever given this waiter, whose subject is a T.
    const held = new Held(tryOnId, subject, performance.now() + ms, list, wake as Wake<unknown>);
    if (list.tail) {
      list.tail.next = held;
      held.prev = list.tail;
    } else {
      list.head = held;
    }
    list.tail = held;
    if (!list.timer) this.#arm(list);
    const first = this.#byTryOn.get(tryOnId);
    if (first) {
      let last = first;
      while (last.same) last = last.same;
      last.same = held;
    } else {
      this.#byTryOn.set(tryOnId, held);
    }
    this.#size++;
    return held as Waiter<T>;
  }

  /** Lets a held request go without waking it (its client went away). Safe to call more than once. */
  release(waiter: Waiter): void {
    this.#unlink(waiter as Held);
  }

  /** Wakes every waiter of a try-on that reached `success` or `failed`. */
  notify(tryOnId: string): void {
    // The waiters held now: one held from inside a wake waits for the next notice.
    const woken: Held[] = [];
    for (let held = this.#byTryOn.get(tryOnId); held; held = held.same) woken.push(held);
    this.#byTryOn.delete(tryOnId);
    for (const held of woken) held.same = undefined;
    for (const held of woken) this.#settle(held, 'finished');
  }

  /** The try-ons some request is held for right now (for a periodic re-read of their state). */
  heldTryOnIds(): string[] {
    return [...this.#byTryOn.keys()];
  }

  /** Requests held right now. */
  get size(): number {
    return this.#size;
  }

  #settle(held: Held, outcome: WaitOutcome): void {
    const wake = held.wake;
    if (!wake) return;
    this.#unlink(held);
    wake(held, outcome);
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
    const first = this.#byTryOn.get(held.tryOnId);
    if (first === held) {
      if (held.same) this.#byTryOn.set(held.tryOnId, held.same);
      else this.#byTryOn.delete(held.tryOnId);
    } else {
      // Not found: notify took it out of the index already.
      for (let before = first; before; before = before.same) {
        if (before.same === held) {
          before.same = held.same;
          break;
        }
      }
    }
    held.same = undefined;
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
