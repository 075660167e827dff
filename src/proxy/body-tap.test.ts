import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { BodyTap } from './body-tap.ts';
import { CaptureBudget } from './limits.ts';

async function through(tap: BodyTap, chunks: readonly Buffer[]): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(
    Readable.from(chunks),
    tap,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done();
      },
    }),
  );
  return hash.digest('hex');
}

describe('BodyTap', () => {
  const chunks = [Buffer.from('hello '), Buffer.from('wide '), Buffer.from('world')];
  const whole = createHash('sha256').update('hello wide world').digest('hex');

  it('passes every byte on and keeps the whole of a body under its limit', async () => {
    const tap = new BodyTap(100);
    expect(await through(tap, chunks)).toBe(whole);
    expect(tap.captured().toString()).toBe('hello wide world');
    expect(tap.partial).toBe(false);
    expect(tap.total).toBe(16);
  });

  it('keeps only the first bytes past its limit, and says partial', async () => {
    const tap = new BodyTap(8);
    expect(await through(tap, chunks)).toBe(whole);
    expect(tap.captured().toString()).toBe('hello wi');
    expect(tap.partial).toBe(true);
  });

  it('draws from the shared budget and gives it back', async () => {
    const budget = new CaptureBudget(10);
    const first = new BodyTap(100, budget);
    await through(first, chunks);
    expect(first.captured().toString()).toBe('hello wide');
    expect(first.partial).toBe(true);
    const second = new BodyTap(100, budget);
    await through(second, chunks);
    expect(second.captured().length).toBe(0);
    first.release();
    expect(budget.reserve(100)).toBe(10);
  });
});
