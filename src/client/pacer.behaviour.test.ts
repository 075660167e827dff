/**
 * The pacer's contract beyond the common path: the margin it is given widens every window, idle()
 * honours a 429's block, a wait of nothing is no wait, and without an injected sleep it waits real time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pacer } from './pacer.ts';

const one = { starts: 1, polls: 1, uploads: 1 };

/** A pacer on a fake clock that records every wait it asks for and every onWait it tells. */
function paced(marginMs?: number) {
  let now = 5_000_000;
  const waits: number[] = [];
  const told: number[] = [];
  const p = new Pacer({
    limits: one,
    ...(marginMs !== undefined && { marginMs }),
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
    onWait: (_b, ms) => told.push(ms),
  });
  return { p, waits, told, advance: (ms: number) => void (now += ms) };
}

describe('Pacer (margins, blocks and idle)', () => {
  it('adds the margin it is given, whatever its size, to the window of a full bucket', async () => {
    const { p, waits } = paced(100);
    await p.take('acc', 'starts');
    await p.take('acc', 'starts');
    expect(waits).toEqual([60_100]);
  });

  it('adds a margin of 250 ms when none is given', async () => {
    const { p, waits } = paced();
    await p.take('acc', 'polls');
    await p.take('acc', 'polls');
    expect(waits).toEqual([60_250]);
  });

  it('on idle() after a 429, waits until the block ends (plus the margin), not a window past it', async () => {
    const { p, waits } = paced(50);
    p.block('acc', 'starts', 7);
    await p.idle('acc', 'starts');
    expect(waits).toEqual([7_050]);
  });

  it('on idle() exactly when the window has emptied, neither waits nor reports a wait', async () => {
    const { p, waits, told, advance } = paced(0);
    await p.take('acc', 'uploads');
    advance(60_000);
    await p.idle('acc', 'uploads');
    expect(waits).toEqual([]);
    expect(told).toEqual([]);
  });

  it('on idle() after a request sent without pacing, waits until that request leaves the window', async () => {
    const { p, waits } = paced(0);
    p.record('acc', 'polls');
    await p.idle('acc', 'polls');
    expect(waits).toEqual([60_000]);
  });

  it('lets a request through when the oldest has just left the window, without a wait', async () => {
    const { p, waits, told, advance } = paced(0);
    await p.take('acc', 'starts');
    advance(60_000);
    await p.take('acc', 'starts');
    expect(waits).toEqual([]);
    expect(told).toEqual([]);
  });
});

describe('Pacer without an injected sleep', () => {
  afterEach(() => void vi.useRealTimers());

  it('waits on a real timer until the block ends', async () => {
    vi.useFakeTimers({ now: 10_000_000 });
    const p = new Pacer({ limits: one });
    p.block('acc', 'polls', 2);
    let done = false;
    const taken = p.take('acc', 'polls').then(() => void (done = true));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await taken;
    expect(done).toBe(true);
  });
});
