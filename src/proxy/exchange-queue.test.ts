import { describe, expect, it } from 'vitest';
import { ExchangeQueue } from './exchange-queue.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ExchangeQueue', () => {
  it('observes every exchange after the turn, in the order they finished', async () => {
    const seen: number[] = [];
    const queue = new ExchangeQueue<number>(
      (n) => seen.push(n),
      () => 0,
    );
    for (const n of [1, 2, 3]) queue.push(n);
    expect(seen).toEqual([]);
    expect(queue.waiting).toBe(3);
    await nextTurn();
    expect(seen).toEqual([1, 2, 3]);
    expect(queue.waiting).toBe(0);
  });

  it('observes at once when too many exchanges wait, dropping none', () => {
    const seen: number[] = [];
    const queue = new ExchangeQueue<number>(
      (n) => seen.push(n),
      () => 0,
      { maxExchanges: 3, maxBytes: 1_000 },
    );
    for (let n = 1; n <= 7; n++) queue.push(n);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect(queue.waiting).toBe(1);
  });

  it('observes at once when the waiting exchanges hold too many captured bytes', () => {
    const seen: number[] = [];
    const queue = new ExchangeQueue<number>(
      (n) => seen.push(n),
      (n) => n,
      { maxExchanges: 100, maxBytes: 10 },
    );
    queue.push(4);
    queue.push(5);
    expect(seen).toEqual([]);
    queue.push(1);
    expect(seen).toEqual([4, 5, 1]);
  });

  it('flush observes what waits now, and an exchange a flush leads to is observed too', () => {
    const seen: number[] = [];
    const queue: ExchangeQueue<number> = new ExchangeQueue<number>(
      (n) => {
        seen.push(n);
        if (n === 1) queue.push(10);
      },
      () => 0,
    );
    queue.push(1);
    queue.push(2);
    queue.flush();
    expect(seen).toEqual([1, 2, 10]);
    expect(queue.waiting).toBe(0);
  });
});
