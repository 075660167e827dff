/**
 * The last few results of a deterministic generation, by a digest of its inputs: the composite engine gives
 * the same bytes for the same photo and garment, and runs start many try-ons from the same two uploads. A hit
 * returns the earlier promise, so simultaneous try-ons of the same inputs share one generation. Bounded by
 * entries, least recently used first out; a failed result is not kept (the next try-on tries again).
 */
import { createHash } from 'node:crypto';

export class ResultCache<T extends { readonly ok: boolean }> {
  readonly #entries = new Map<string, Promise<T>>();

  constructor(private readonly maxEntries: number) {}

  /** The digest of the inputs, in order: each part hashed with its length, so no two splits of the same bytes meet. */
  static keyOf(parts: readonly Buffer[]): string {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(`${part.length}:`).update(part);
    return hash.digest('base64');
  }

  /** The cached result for `key`, or what `make` gives (kept when it is ok). */
  get(key: string, make: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      // Most recently used last.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const made = make();
    this.#entries.set(key, made);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    made.then(
      (result) => {
        if (!result.ok && this.#entries.get(key) === made) this.#entries.delete(key);
      },
      () => {
        if (this.#entries.get(key) === made) this.#entries.delete(key);
      },
    );
    return made;
  }

  get size(): number {
    return this.#entries.size;
  }
}
