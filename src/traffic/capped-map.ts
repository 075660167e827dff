/**
 * A map that keeps at most `cap` entries: past it, the entry used least recently is let go and
 * counted, so per-account and per-try-on state stays bounded whatever the traffic. A rule whose state
 * was let go judges nothing more of it (it never guesses), and the report says how much was let go.
 */
export class CappedMap<K, V> {
  readonly #map = new Map<K, V>();
  #evicted = 0;
  /** The key last used or set (the map's last entry), when known. */
  #newest: K | undefined;

  constructor(readonly cap: number) {}

  /** Entries let go so far. */
  get evicted(): number {
    return this.#evicted;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.#map.get(key);
    // Traffic asks for the same key again and again: the most recent one needs no move.
    if (value !== undefined && key !== this.#newest) {
      this.#map.delete(key);
      this.#map.set(key, value);
      this.#newest = key;
    }
    return value;
  }

  /** The value, made by `make` when absent (letting the least recently used go past the cap). */
  getOrMake(key: K, make: () => V): V {
    const found = this.get(key);
    if (found !== undefined) return found;
    const value = make();
    this.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    this.#newest = key;
    while (this.#map.size > this.cap) {
      const oldest = this.#map.keys().next().value as K;
      this.#map.delete(oldest);
      this.#evicted += 1;
    }
  }

  delete(key: K): void {
    this.#map.delete(key);
    if (key === this.#newest) this.#newest = undefined;
  }

  values(): IterableIterator<V> {
    return this.#map.values();
  }

  clear(): void {
    this.#map.clear();
    this.#newest = undefined;
  }
}
