/**
 * The read cache (read-cache.ts) for a store that other instances write too: keys, limits and final
 * try-ons are remembered as on the embedded store, and all forgotten whenever the shared epoch moves.
 * Every change another instance may hold (a key added or revoked, an account's limits, try-ons a sweep
 * deleted) moves the epoch in its own transaction (pg-migration-reads.ts), and every request reads the
 * epoch before it is handled (cluster/shared-clock.ts): so once a change's call has returned, the next
 * request on any instance finds its cache forgotten, and a read begun before that is not remembered.
 */
import { type CachedStore, withReadCache } from './read-cache.ts';
import type { Store } from './store.ts';

/** What tells the cache of each newer epoch, before any request that read it goes on. */
export interface EpochSource {
  onEpoch(listener: (epoch: number) => void): void;
}

/** `store` behind a read cache forgotten at each newer epoch of `epochs`. */
export function withSharedReadCache(store: Store, epochs: EpochSource): CachedStore {
  const cache = withReadCache(boundMethods(store));
  epochs.onEpoch(() => cache.forgetAll());
  return cache;
}

/** `store`'s methods as own properties bound to it: the cache spreads its store, and a class keeps them on its prototype. */
function boundMethods(store: Store): Store {
  const out: Record<string, unknown> = {};
  const source = store as unknown as Record<string, unknown>;
  for (let o: object | null = store; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      const value = source[name];
      if (name !== 'constructor' && !(name in out) && typeof value === 'function') out[name] = value.bind(store);
    }
  }
  return out as unknown as Store;
}
