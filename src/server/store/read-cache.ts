/**
 * A read cache in front of a Store for the reads every request makes: a key by its lookup id, an account's
 * limits, and a finished try-on. Every write goes through it (this process is the store's only writer): a
 * key change drops every cached key, a limits change that account's limits; a try-on is cached only once
 * final, and forgotten at every sweep. A new Store method that writes keys, limits or try-ons must drop them
 * here too (read-cache.test.ts lists the methods, so a new one is noticed).
 */
import type { AccountLimits, KeyRecord, Store, TryOnRecord } from './store.ts';

/** Entries each cache holds at most; the oldest go first. */
export const readCacheEntries = 10_000;

/** A Map that forgets its oldest entry past `max` entries. */
class BoundedMap<K, V> {
  readonly #map = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  set(key: K, value: V): void {
    if (this.#map.size >= this.max && !this.#map.has(key)) {
      const oldest = this.#map.keys().next();
      if (!oldest.done) this.#map.delete(oldest.value);
    }
    this.#map.set(key, value);
  }

  delete(key: K): void {
    this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }
}

/** Wraps `store` with the read cache; every other method passes straight through. */
export function withReadCache(store: Store, maxEntries = readCacheEntries): Store {
  const keys = new BoundedMap<string, KeyRecord>(maxEntries);
  const limits = new BoundedMap<string, AccountLimits | null>(maxEntries);
  const finished = new BoundedMap<string, TryOnRecord>(maxEntries);

  return {
    ...store,
    replaceKey(accountId, lookupId, hash, now) {
      keys.clear();
      store.replaceKey(accountId, lookupId, hash, now);
    },
    revokeKeys(accountId, now) {
      keys.clear();
      store.revokeKeys(accountId, now);
    },
    findKey(lookupId) {
      const cached = keys.get(lookupId);
      if (cached) return cached;
      // A lookup id that finds nothing is not remembered: guessed ids must not fill the cache.
      const record = store.findKey(lookupId);
      if (record) keys.set(lookupId, record);
      return record;
    },
    setLimits(accountId, next) {
      limits.delete(accountId);
      store.setLimits(accountId, next);
    },
    limitsOf(accountId) {
      // One lookup: a remembered account without limits of its own is null, an unknown one undefined.
      const cached = limits.get(accountId);
      if (cached !== undefined) return cached;
      const value = store.limitsOf(accountId);
      // Only an existing account's limits are remembered (an unknown id could be created later).
      if (value !== null || store.accountExists(accountId)) limits.set(accountId, value);
      return value;
    },
    findTryOn(id) {
      const cached = finished.get(id);
      if (cached) return cached;
      const record = store.findTryOn(id);
      if (record && record.status !== 'pending') finished.set(id, record);
      return record;
    },
    finishSuccess(id, result, now) {
      finished.delete(id);
      return store.finishSuccess(id, result, now);
    },
    finishFailure(id, message, now) {
      finished.delete(id);
      return store.finishFailure(id, message, now);
    },
    sweep(now, recordRetentionMs) {
      // The sweep deletes try-ons past their retention; the ones cached are read again.
      const deleted = store.sweep(now, recordRetentionMs);
      finished.clear();
      return deleted;
    },
  };
}
