/**
 * The server's clock as its answers show it: test control's clock moves and settings answer with the
 * server's `now`. Between two moves the clock runs with real time, so the server's time is real time
 * plus one offset per stretch between moves (a segment), known within ±half the answer's duration:
 * times within one segment compare exactly, across segments within the halves. Rules that count
 * windows or expiry on the server's clock read times through it. A move whose answer did not say the
 * time makes earlier times incomparable with later ones: `epoch` counts those.
 */

interface Segment {
  readonly id: number;
  /** The answer that began it: the move may have happened from its start, and surely had by its end. */
  readonly from: number;
  readonly until: number;
  /** The server's clock less real time (ms), and how far off that may be either way. */
  readonly offset: number;
  readonly half: number;
}

/** Where a request fell on the server's clock. */
export interface Placed {
  readonly from: number;
  readonly to: number;
  /** The segment it fell in whole; none when a move may have happened while it ran. */
  readonly segment: number | undefined;
  readonly half: number;
}

/** Segments kept: enough for the moves of one window of time. */
const kept = 64;

export class ServerClock {
  #base: Segment = { id: 0, from: -Infinity, until: -Infinity, offset: 0, half: 0 };
  readonly #segments: Segment[] = [];
  #told = false;
  #stale = false;
  #next = 1;
  /** Counts the moves that made earlier times incomparable with later ones. */
  epoch = 0;
  /** When the clock last moved by test control (real ms); never, before any move. */
  movedAt = Number.NEGATIVE_INFINITY;

  /** An answer from `startedAt` to `endedAt` said the server's time was `now`; `moved`: it moved the clock. */
  saw(now: number, startedAt: number, endedAt: number, moved: boolean): void {
    const lo = now - endedAt;
    const hi = now - startedAt;
    const segment = { id: this.#next++, from: startedAt, until: endedAt, offset: (lo + hi) / 2, half: (hi - lo) / 2 };
    if (moved) {
      this.movedAt = endedAt;
      if (this.#stale) this.epoch += 1;
      this.#stale = false;
      this.#segments.push(segment);
      if (this.#segments.length > kept) this.#base = this.#segments.shift() as Segment;
    } else if (!this.#told && this.#segments.length === 0) {
      // The first time told, before any move: the offset the server has had all along.
      this.#base = { ...segment, id: 0, from: -Infinity, until: -Infinity };
    }
    this.#told = true;
  }

  /** Test control moved the clock at `at` without saying by how much. */
  movedUnknown(at: number): void {
    this.movedAt = at;
    this.epoch += 1;
    this.#stale = true;
  }

  /** Where a request from `startedAt` to `endedAt` (real ms) fell on the server's clock. */
  place(startedAt: number, endedAt: number): Placed {
    const first = this.#segmentAt(startedAt);
    const last = this.#segmentAt(endedAt);
    const whole = first.surely.id === last.perhaps.id;
    return {
      from: startedAt + first.surely.offset,
      to: endedAt + last.perhaps.offset,
      segment: whole ? first.surely.id : undefined,
      half: Math.max(first.surely.half, last.perhaps.half),
    };
  }

  /** The least the server's clock read at `wall`, if an answer ever said its time. */
  leastAt(wall: number): number | undefined {
    if (!this.#told) return undefined;
    const { surely } = this.#segmentAt(wall);
    return wall + surely.offset - surely.half;
  }

  /** The segment surely in force at `t`, and the latest that may have been. */
  #segmentAt(t: number): { surely: Segment; perhaps: Segment } {
    let surely = this.#base;
    let perhaps = this.#base;
    for (const s of this.#segments) {
      if (s.until <= t) surely = s;
      if (s.from <= t) perhaps = s;
    }
    return { surely, perhaps };
  }
}
