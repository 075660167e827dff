/**
 * Taps on a body in flight: the first `limit` bytes are copied for the checks, the rest only
 * counted; past the limit, or once the shared capture budget runs short, the tap says `partial`.
 * Memory never holds more than `limit` per body. `ChunkTap` only watches chunks (the answer's body,
 * read where it is piped to the client, with no stream in between); `BodyTap` is a stream that
 * passes every chunk on unchanged (the request's body, on its way to the upstream).
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { CaptureBudget } from './limits.ts';

export class ChunkTap {
  private readonly limit: number;
  private readonly budget: CaptureBudget | undefined;
  private kept: Buffer[] = [];
  private keptBytes = 0;
  /** No more bytes are kept (the limit or the budget was reached, or the capture was let go). */
  private stopped = false;
  /** Every byte seen, kept or not. */
  total = 0;

  /** A tap that keeps at most `limit` bytes of the body (0: counts only), drawn from `budget` as they come. */
  constructor(limit: number, budget?: CaptureBudget) {
    this.limit = limit;
    this.budget = budget;
    this.stopped = limit <= 0;
  }

  /** Sees one chunk of the body. */
  observe(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.stopped) return;
    const wanted = Math.min(chunk.length, this.limit - this.keptBytes);
    const granted = wanted > 0 && this.budget ? this.budget.reserve(wanted) : wanted;
    if (granted > 0) {
      // A copy: the chunk's memory may be pooled and reused once it has been written on.
      this.kept.push(Buffer.from(chunk.subarray(0, granted)));
      this.keptBytes += granted;
    }
    if (granted < chunk.length) this.stopped = true;
  }

  /** Whether bytes went by unseen. */
  get partial(): boolean {
    return this.total > this.keptBytes;
  }

  /** The bytes kept, at most `limit`. */
  captured(): Buffer {
    return this.kept.length === 1 ? (this.kept[0] as Buffer) : Buffer.concat(this.kept, this.keptBytes);
  }

  /** Lets the kept bytes go, back to the budget; nothing more is kept. Call once the exchange is recorded. */
  release(): void {
    this.stopped = true;
    if (this.kept.length === 0) return;
    this.budget?.release(this.kept.reduce((sum, part) => sum + part.length, 0));
    this.kept = [];
  }
}

/** A stream that passes every chunk on unchanged and in order (backpressure is the stream's own), tapping it. */
export class BodyTap extends Transform {
  readonly tap: ChunkTap;

  /** A tap that keeps at most `limit` bytes of the body, drawn from `budget` as they come. */
  constructor(limit: number, budget?: CaptureBudget) {
    super();
    this.tap = new ChunkTap(limit, budget);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.tap.observe(chunk);
    done(null, chunk);
  }

  get total(): number {
    return this.tap.total;
  }

  get partial(): boolean {
    return this.tap.partial;
  }

  captured(): Buffer {
    return this.tap.captured();
  }

  release(): void {
    this.tap.release();
  }
}
