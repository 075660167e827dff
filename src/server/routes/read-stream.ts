/**
 * Reads a stream of buffers into one buffer as it arrives: each chunk is copied in and can be
 * collected at once, instead of all of them being kept until one joined copy is made at the end
 * (which holds a body twice at its peak). The buffer is sized from the length the sender declared
 * when there is one, and otherwise doubles as it fills.
 */
import type { Readable } from 'node:stream';

const firstSize = 256 * 1024;

/** The bytes of `stream`, read into one buffer of `expected` bytes (0: unknown) that grows if need be. */
export async function readStreamInto(stream: Readable, expected: number): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(expected > 0 ? expected : firstSize);
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (length + chunk.length > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, length + chunk.length));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    chunk.copy(buffer, length);
    length += chunk.length;
  }
  return buffer.subarray(0, length);
}
