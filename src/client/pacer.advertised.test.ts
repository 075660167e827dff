/** The pacer under what a target says: advertised quotas replace the limit, a block never outlasts its cap. */
import { describe, expect, it } from 'vitest';
import { documentedLimits } from '../contract/rate-limits.ts';
import { maxBlockMs, Pacer } from './pacer.ts';

function pacer() {
  let now = 1_000_000;
  const waits: number[] = [];
  const p = new Pacer({
    limits: documentedLimits,
    marginMs: 0,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  return { p, waits };
}

describe('Pacer with advertised quotas', () => {
  it('paces an account by the quota its target advertised in place of the documented 12 starts', async () => {
    const { p, waits } = pacer();
    p.adopt('acc', 'starts', [{ limit: 20, windowMs: 60_000 }]);
    for (let i = 0; i < 20; i++) await p.take('acc', 'starts');
    expect(waits).toEqual([]);
    await p.take('acc', 'starts');
    expect(waits).toEqual([60_000]);
    // Another account keeps the documented limit.
    for (let i = 0; i < 13; i++) await p.take('other', 'starts');
    expect(waits).toHaveLength(2);
  });

  it('keeps every advertised quota: a burst of 2 a second within 12 a minute', async () => {
    const { p, waits } = pacer();
    p.adopt('acc', 'starts', [
      { limit: 2, windowMs: 1_000 },
      { limit: 12, windowMs: 60_000 },
    ]);
    for (let i = 0; i < 3; i++) await p.take('acc', 'starts');
    expect(waits).toEqual([1_000]);
  });

  it('ignores unusable quotas (none, under a second, over an hour), and restores the limit when none is left', async () => {
    const { p, waits } = pacer();
    p.adopt('acc', 'starts', [
      { limit: 0, windowMs: 60_000 },
      { limit: 5, windowMs: 500 },
      { limit: 5, windowMs: 7_200_000 },
    ]);
    for (let i = 0; i < 12; i++) await p.take('acc', 'starts');
    expect(waits).toEqual([]);
    await p.take('acc', 'starts');
    expect(waits).toEqual([60_000]);
  });

  it(`never blocks a bucket longer than ${maxBlockMs / 1000} s, whatever a Retry-After says`, async () => {
    const { p, waits } = pacer();
    p.block('acc', 'polls', 10 ** 9);
    await p.take('acc', 'polls');
    expect(waits).toEqual([maxBlockMs]);
  });
});

describe('Pacer counts', () => {
  it('counts the answered requests of each bucket, and the 429s among them', () => {
    const { p } = pacer();
    p.answered('starts', 403);
    p.answered('starts', 429);
    p.answered('uploads', 200);
    expect(p.counts()).toEqual({
      starts: { sent: 2, limited: 1 },
      polls: { sent: 0, limited: 0 },
      uploads: { sent: 1, limited: 0 },
    });
  });
});

describe('Pacer unpaced', () => {
  it('waits for nothing while unpaced() says so (the target counts nothing), and counts what it let through', async () => {
    let unpaced = false;
    let now = 0;
    const waits: number[] = [];
    const p = new Pacer({
      limits: { starts: 1, polls: 1, uploads: 1 },
      marginMs: 0,
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
      unpaced: () => unpaced,
    });
    await p.take('acc', 'starts');
    unpaced = true;
    for (let i = 0; i < 5; i++) await p.take('acc', 'starts');
    await p.idle('acc', 'starts');
    expect(waits).toEqual([]);
    unpaced = false;
    await p.take('acc', 'starts');
    expect(waits).toEqual([60_000]);
  });
});
