/**
 * A store written synchronously (better-sqlite3 answers at once) behind the asynchronous Store seam:
 * each method still runs at its call, as one transaction, and its answer or error comes back as a promise.
 */
import type { Store } from './store.ts';

/** The Store with every method answering at once instead of through a promise. */
export type SynchronousStore = {
  readonly [K in keyof Store]: Store[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/** Wraps each method of `sync` so it returns a promise: settled already, since the work is done in the call. */
export function asynchronous(sync: SynchronousStore): Store {
  const store: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(sync) as [string, (...args: unknown[]) => unknown][]) {
    store[name] = (...args: unknown[]) => {
      try {
        return Promise.resolve(method(...args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return store as unknown as Store;
}
