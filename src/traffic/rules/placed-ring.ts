/**
 * The latest requests a rate window counts, as a ring of plain numbers and key digests: one window
 * takes a request per exchange let through, so it keeps no object per request (nothing for the
 * garbage collector to promote) and lets the oldest go without moving the others.
 */
import type { Placed } from './server-clock.ts';

/** Where a ring's requests fell at the extremes, and their one clock segment if they share it. */
export interface Span {
  readonly from: number;
  readonly to: number;
  readonly half: number;
  readonly segment: number | undefined;
}

/** A segment id is never negative: this stands for "none" (a move may have happened meanwhile). */
const noSegment = -1;

export class PlacedRing {
  #from = new Float64Array(8);
  #to = new Float64Array(8);
  #half = new Float64Array(8);
  #segment = new Float64Array(8);
  #keys: string[] = new Array<string>(8);
  /** Where the oldest request is, and how many are kept. */
  #head = 0;
  #size = 0;

  get length(): number {
    return this.#size;
  }

  /** Keeps one more request, placed `at`, sent with the key digest `key`; the oldest go past `max` kept. */
  push(at: Placed, key: string, max: number): void {
    if (this.#size === this.#from.length) this.#grow();
    const i = (this.#head + this.#size) % this.#from.length;
    this.#from[i] = at.from;
    this.#to[i] = at.to;
    this.#half[i] = at.half;
    this.#segment[i] = at.segment ?? noSegment;
    this.#keys[i] = key;
    this.#size += 1;
    while (this.#size > max) {
      this.#head = (this.#head + 1) % this.#from.length;
      this.#size -= 1;
    }
  }

  /** Lets every request go. */
  clear(): void {
    this.#head = 0;
    this.#size = 0;
  }

  /** The earliest start, the latest end, the largest uncertainty, and the segment all share (if they do). */
  span(): Span {
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    let half = Number.NEGATIVE_INFINITY;
    let one = true;
    const cap = this.#from.length;
    const first = this.#segment[this.#head] as number;
    for (let n = 0, i = this.#head; n < this.#size; n++, i = i + 1 === cap ? 0 : i + 1) {
      const f = this.#from[i] as number;
      const t = this.#to[i] as number;
      const h = this.#half[i] as number;
      if (f < from) from = f;
      if (t > to) to = t;
      if (h > half) half = h;
      if (this.#segment[i] !== first) one = false;
    }
    const shared = this.#size > 0 && one && first !== noSegment ? first : undefined;
    return { from, to, half, segment: shared };
  }

  /** How many different keys sent the kept requests. */
  keys(): number {
    const cap = this.#from.length;
    const first = this.#keys[this.#head];
    for (let n = 0, i = this.#head; n < this.#size; n++, i = i + 1 === cap ? 0 : i + 1) {
      if (this.#keys[i] !== first) return new Set(this.#ordered()).size;
    }
    return this.#size > 0 ? 1 : 0;
  }

  #ordered(): string[] {
    const out: string[] = [];
    const cap = this.#from.length;
    for (let n = 0, i = this.#head; n < this.#size; n++, i = i + 1 === cap ? 0 : i + 1)
      out.push(this.#keys[i] as string);
    return out;
  }

  /** Twice the room, the kept requests moved to the front in order. */
  #grow(): void {
    const cap = this.#from.length;
    const move = (old: Float64Array): Float64Array<ArrayBuffer> => {
      const out = new Float64Array(cap * 2);
      for (let n = 0, i = this.#head; n < this.#size; n++, i = i + 1 === cap ? 0 : i + 1) out[n] = old[i] as number;
      return out;
    };
    this.#keys = [...this.#ordered(), ...new Array<string>(cap)];
    this.#from = move(this.#from);
    this.#to = move(this.#to);
    this.#half = move(this.#half);
    this.#segment = move(this.#segment);
    this.#head = 0;
  }
}
