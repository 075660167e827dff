/**
 * A read cache in front of a Store for the reads every request makes: a key by its lookup id, an account's
 * limits, and a finished try-on. Every write goes through it (this process is the store's only writer): a
 * key change drops every cached key, a limits change the cached limits; a try-on is cached only once
 * final, and forgotten at every sweep. A write drops them both when it starts and when it has resolved, and
 * a read that was under way meanwhile is not remembered, so no read after a write resolved is stale. A new
 * Store method that writes keys, limits or try-ons must drop them here too (read-cache.test.ts lists the
 * methods, so a new one is noticed). `cached` answers from the cache alone, without a promise, for hot paths.
 */
import type { AccountLimits, KeyRecord, Store, TryOnRecord } from './store.ts';

/** Entries each cache holds at most; the oldest go first. */
export const readCacheEntries = 10_000;

/** What the cache holds right now, read without a promise; undefined: ask the store. */
export interface CachedReads {
  key(lookupId: string): KeyRecord | undefined;
  /** An account's limits: null when it has none of its own. */
  limits(accountId: string): AccountLimits | null | undefined;
  /** A final try-on. */
  tryOn(id: string): TryOnRecord | undefined;
}

/** A Store behind the read cache, with the cache's own answers beside it. */
export interface CachedStore extends Store {
  readonly cached: CachedReads;
  /** Forgets everything cached (another writer changed the store); reads under way are not remembered. */
  forgetAll(): void;
}

/**
 * A Map that forgets its oldest entry past `max` entries. Its generation moves at every drop, and a
 * value read from the store is remembered only if no drop happened since the read began.
 */
class BoundedMap<K, V> {
  readonly #map = new Map<K, V>();
  #generation = 0;

  constructor(private readonly max: number) {}

  get generation(): number {
    return this.#generation;
  }

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  /** Remembers `value` if nothing was dropped since `generation`. */
  setSince(generation: number, key: K, value: V): void {
    if (generation !== this.#generation) return;
    if (this.#map.size >= this.max && !this.#map.has(key)) {
      const oldest = this.#map.keys().next();
      if (!oldest.done) this.#map.delete(oldest.value);
    }
    this.#map.set(key, value);
  }

  delete(key: K): void {
    this.#generation++;
    this.#map.delete(key);
  }

  clear(): void {
    this.#generation++;
    this.#map.clear();
  }
}

/** Runs `write` with `drop` called before it and again once it has settled. */
async function dropping<T>(drop: () => void, write: () => Promise<T>): Promise<T> {
  drop();
  try {
    return await write();
  } finally {
    drop();
  }
}

const nothingCached: CachedReads = Object.freeze({
  key: () => undefined,
  limits: () => undefined,
  tryOn: () => undefined,
});

/** What `store`'s read cache holds; a store without one (shared with other writers) caches nothing. */
export function cachedReadsOf(store: Store): CachedReads {
  return 'cached' in store ? (store as CachedStore).cached : nothingCached;
}

/** Wraps `store` with the read cache; every other method passes straight through. */
export function withReadCache(store: Store, maxEntries = readCacheEntries): CachedStore {
  const keys = new BoundedMap<string, KeyRecord>(maxEntries);
  const limits = new BoundedMap<string, AccountLimits | null>(maxEntries);
  const finished = new BoundedMap<string, TryOnRecord>(maxEntries);
  const dropKeys = () => keys.clear();

  return {
    ...store,
    cached: {
      key: (lookupId) => keys.get(lookupId),
      limits: (accountId) => limits.get(accountId),
      tryOn: (id) => finished.get(id),
    },
    forgetAll() {
      keys.clear();
      limits.clear();
      finished.clear();
    },
    replaceKey(accountId, lookupId, hash, now) {
      return dropping(dropKeys, () => store.replaceKey(accountId, lookupId, hash, now));
    },
    revokeKeys(accountId, now) {
      return dropping(dropKeys, () => store.revokeKeys(accountId, now));
    },
    async findKey(lookupId) {
      const cached = keys.get(lookupId);
      if (cached) return cached;
      const since = keys.generation;
      // A lookup id that finds nothing is not remembered: guessed ids must not fill the cache.
      const record = await store.findKey(lookupId);
      if (record) keys.setSince(since, lookupId, record);
      return record;
    },
    setLimits(accountId, next) {
      return dropping(
        () => limits.delete(accountId),
        () => store.setLimits(accountId, next),
      );
    },
    async limitsOf(accountId) {
      // One lookup: a remembered account without limits of its own is null, an unknown one undefined.
      const cached = limits.get(accountId);
      if (cached !== undefined) return cached;
      const since = limits.generation;
      const value = await store.limitsOf(accountId);
      // Only an existing account's limits are remembered (an unknown id could be created later).
      if (value !== null || (await store.accountExists(accountId))) limits.setSince(since, accountId, value);
      return value;
    },
    async findTryOn(id) {
      const cached = finished.get(id);
      if (cached) return cached;
      const since = finished.generation;
      const record = await store.findTryOn(id);
      if (record && record.status !== 'pending') finished.setSince(since, id, record);
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
      return dropping(
        () => finished.clear(),
        () => store.sweep(now, recordRetentionMs),
      );
    },
  };
}
