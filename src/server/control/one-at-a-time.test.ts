import { describe, expect, it } from 'vitest';
import { oneAtATime } from './one-at-a-time.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('oneAtATime', () => {
  it('runs the calls of one key in order, never two at once, whether each succeeds or fails', async () => {
    const run = oneAtATime();
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = (i: number) => async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      order.push(i);
      running--;
      if (i === 1) throw new Error('refused');
      return i;
    };
    const results = await Promise.allSettled([0, 1, 2, 3].map((i) => run('acct_1', work(i))));
    expect(order).toEqual([0, 1, 2, 3]);
    expect(most).toBe(1);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  });

  it('lets calls of different keys run at the same time', async () => {
    const run = oneAtATime();
    let running = 0;
    let most = 0;
    const work = async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
    };
    await Promise.all([run('a', work), run('b', work), run('c', work)]);
    expect(most).toBe(3);
  });
});
