/**
 * Held sync requests (spec: POST /tryons/sync). A waiter is woken by the generation queue's
 * "finished" notice, never by polling the store. Each waiter has one one-shot deadline timer; they
 * all share one duration, and Node keeps same-duration timers in a single list behind one handle,
 * so ten thousand held requests cost no per-tick work.
 */
export type WaitOutcome = 'finished' | 'timeout';

export class SyncWaiters {
  readonly #waiting = new Map<string, Set<(outcome: WaitOutcome) => void>>();

  /** Resolves 'finished' when `tryOnId` reaches a final state, or 'timeout' after `ms`. */
  wait(tryOnId: string, ms: number, signal?: AbortSignal): Promise<WaitOutcome> {
    return new Promise((resolve) => {
      const set = this.#waiting.get(tryOnId) ?? new Set();
      this.#waiting.set(tryOnId, set);
      const done = (outcome: WaitOutcome) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        set.delete(done);
        if (set.size === 0 && this.#waiting.get(tryOnId) === set) this.#waiting.delete(tryOnId);
        resolve(outcome);
      };
      const onAbort = () => done('timeout');
      const timer = setTimeout(() => done('timeout'), ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      set.add(done);
    });
  }

  /** Wakes every waiter of a try-on that reached `success` or `failed`. */
  notify(tryOnId: string): void {
    for (const done of [...(this.#waiting.get(tryOnId) ?? [])]) done('finished');
  }

  get size(): number {
    let n = 0;
    for (const set of this.#waiting.values()) n += set.size;
    return n;
  }
}
