/** The pacer under an injected clock: no wall-clock waits, every wait is a number it asked for. */
import { describe, expect, it } from 'vitest';
import { documentedLimits } from '../contract/rate-limits.ts';
import { Pacer, type Bucket, type Limits } from './pacer.ts';

/** A pacer whose sleep moves a fake clock forward, and which remembers every wait. */
function pacer(limits: Limits = documentedLimits, marginMs = 0) {
  let now = 1_000_000;
  const waits: number[] = [];
  const p = new Pacer({
    limits,
    marginMs,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  return { p, waits, advance: (ms: number) => void (now += ms), now: () => now };
}

describe('Pacer', () => {
  it.each<[string, Bucket, number]>([
    ['12 starts', 'starts', 12],
    ['60 polls', 'polls', 60],
    ['30 uploads', 'uploads', 30],
  ])('lets the documented %s per minute through at once', async (_name, bucket, limit) => {
    const { p, waits } = pacer();
    for (let i = 0; i < limit; i++) await p.take('acc', bucket);
    expect(waits).toEqual([]);
  });

  it('makes the request past the limit wait until the oldest leaves the 60 s window (plus the margin)', async () => {
    const { p, waits, advance } = pacer({ starts: 2, polls: 1, uploads: 1 }, 250);
    await p.take('acc', 'starts');
    advance(10_000);
    await p.take('acc', 'starts');
    advance(5_000);
    await p.take('acc', 'starts');
    // The first left at 0 + 60 000 + 250; 15 000 had passed.
    expect(waits).toEqual([45_250]);
  });

  it('keeps accounts and buckets apart', async () => {
    const { p, waits } = pacer({ starts: 1, polls: 1, uploads: 1 });
    await p.take('a', 'starts');
    await p.take('b', 'starts');
    await p.take('a', 'polls');
    await p.take('a', 'uploads');
    expect(waits).toEqual([]);
  });

  it('counts requests sent without pacing', async () => {
    const { p, waits } = pacer({ starts: 1, polls: 1, uploads: 1 });
    p.record('acc', 'starts');
    await p.take('acc', 'starts');
    expect(waits).toEqual([60_000]);
  });

  it('holds a bucket for the Retry-After of a 429', async () => {
    const { p, waits } = pacer();
    p.block('acc', 'polls', 7);
    await p.take('acc', 'polls');
    await p.take('acc', 'starts');
    expect(waits).toEqual([7_000]);
  });

  it('keeps the longer of two blocks', async () => {
    const { p, waits } = pacer();
    p.block('acc', 'uploads', 9);
    p.block('acc', 'uploads', 2);
    await p.take('acc', 'uploads');
    expect(waits).toEqual([9_000]);
  });

  it('waits until the window is empty on idle(), and not at all when it already is', async () => {
    const { p, waits, advance } = pacer(documentedLimits, 100);
    await p.idle('acc', 'starts');
    expect(waits).toEqual([]);
    await p.take('acc', 'starts');
    advance(20_000);
    await p.idle('acc', 'starts');
    expect(waits).toEqual([40_100]);
  });

  it('paces at raised limits after setLimits', async () => {
    const { p, waits } = pacer({ starts: 1, polls: 1, uploads: 1 });
    p.setLimits({ starts: 100, polls: 100, uploads: 100 });
    for (let i = 0; i < 100; i++) await p.take('acc', 'starts');
    expect(waits).toEqual([]);
    expect(p.limits.starts).toBe(100);
  });

  it('tells onWait about every wait', async () => {
    const told: Array<[Bucket, number]> = [];
    let now = 0;
    const p = new Pacer({
      limits: { starts: 1, polls: 1, uploads: 1 },
      marginMs: 0,
      now: () => now,
      sleep: async (ms) => void (now += ms),
      onWait: (b, ms) => told.push([b, ms]),
    });
    await p.take('acc', 'polls');
    await p.take('acc', 'polls');
    expect(told).toEqual([['polls', 60_000]]);
  });
});
