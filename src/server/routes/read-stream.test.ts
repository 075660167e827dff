import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readStreamInto } from './read-stream.ts';

const chunks = Array.from({ length: 40 }, (_, i) => Buffer.alloc(10_000 + i, i));
const whole = Buffer.concat(chunks);

describe('readStreamInto', () => {
  it.each([
    ['the declared length', whole.length],
    ['a declared length larger than the stream', whole.length + 5_000],
    ['no declared length (the buffer grows)', 0],
    ['a declared length too small (the buffer grows)', 1_000],
  ])('reads every byte, in order, with %s', async (_name, expected) => {
    const bytes = await readStreamInto(Readable.from(chunks), expected);
    expect(bytes.equals(whole)).toBe(true);
  });

  it('passes on the error of a stream that fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('client left'));
      },
    });
    await expect(readStreamInto(failing, 0)).rejects.toThrow('client left');
  });
});
