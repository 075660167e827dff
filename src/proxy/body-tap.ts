/**
 * A tap on a body in flight: every chunk passes on unchanged and in order (backpressure is the
 * stream's own), and the first `limit` bytes are copied for the checks. Past the limit, or once the
 * shared capture budget runs short, the bytes go through unseen and the tap says `partial`; memory
 * never holds more than `limit` per body.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { CaptureBudget } from './limits.ts';

export class BodyTap extends Transform {
  private readonly limit: number;
  private readonly budget: CaptureBudget | undefined;
  private kept: Buffer[] = [];
  private keptBytes = 0;
  /** No more bytes are kept (the limit or the budget was reached, or the capture was let go). */
  private stopped = false;
  /** Every byte that passed, seen or not. */
  total = 0;

  /** A tap that keeps at most `limit` bytes of the body (0: counts only), drawn from `budget` as they come. */
  constructor(limit: number, budget?: CaptureBudget) {
    super();
    this.limit = limit;
    this.budget = budget;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.total += chunk.length;
    if (!this.stopped) this.keep(chunk);
    done(null, chunk);
  }

  private keep(chunk: Buffer): void {
    const wanted = Math.min(chunk.length, this.limit - this.keptBytes);
    const granted = wanted > 0 && this.budget ? this.budget.reserve(wanted) : wanted;
    if (granted > 0) {
      // A copy: the chunk's memory may be pooled and reused once it has been written on.
      this.kept.push(Buffer.from(chunk.subarray(0, granted)));
      this.keptBytes += granted;
    }
    if (granted < chunk.length) this.stopped = true;
  }

  /** Whether bytes went through unseen. */
  get partial(): boolean {
    return this.total > this.keptBytes;
  }

  /** The bytes kept, at most `limit`. */
  captured(): Buffer {
    return this.kept.length === 1 ? (this.kept[0] as Buffer) : Buffer.concat(this.kept, this.keptBytes);
  }

  /** Lets the kept bytes go, back to the budget; nothing more is kept. Call once the exchange is recorded. */
  release(): void {
    if (this.kept.length === 0) return;
    this.budget?.release(this.kept.reduce((sum, part) => sum + part.length, 0));
    this.kept = [];
    this.stopped = true;
  }
}
