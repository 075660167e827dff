import { afterEach, describe, expect, it, vi } from 'vitest';
import { DueLists } from './due-lists.ts';

afterEach(() => void vi.useRealTimers());

describe('DueLists', () => {
  it('hands each item on once its own wait is over, in the order they fall due, across wait lengths', () => {
    vi.useFakeTimers();
    const order: string[] = [];
    const lists = new DueLists<string>((item) => order.push(item));
    lists.add('a', 1_000);
    vi.advanceTimersByTime(300);
    lists.add('b', 1_000);
    lists.add('c', 200);
    lists.add('d', 1_000);
    expect(lists.size).toBe(4);
    vi.advanceTimersByTime(199);
    expect(order).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(['c']);
    vi.advanceTimersByTime(500);
    expect(order).toEqual(['c', 'a']);
    vi.advanceTimersByTime(299);
    expect(order).toEqual(['c', 'a']);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(['c', 'a', 'b', 'd']);
    expect(lists.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('hands on items of a zero wait on the next turn of the timers, in the order they were added', () => {
    vi.useFakeTimers();
    const order: number[] = [];
    const lists = new DueLists<number>((item) => order.push(item));
    for (let i = 0; i < 5; i++) lists.add(i, 0);
    expect(order).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps one timer per wait length, whatever the number of items', () => {
    vi.useFakeTimers();
    const lists = new DueLists<number>(() => undefined);
    for (let i = 0; i < 3_000; i++) lists.add(i, i % 2 === 0 ? 500 : 800);
    expect(vi.getTimerCount()).toBe(2);
    vi.advanceTimersByTime(500);
    expect(lists.size).toBe(1_500);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('gives an item added while items are handed on its own full wait', () => {
    vi.useFakeTimers();
    const order: string[] = [];
    const lists = new DueLists<string>((item) => {
      order.push(item);
      if (item === 'a') lists.add('again', 1_000);
    });
    lists.add('a', 1_000);
    lists.add('b', 1_000);
    vi.advanceTimersByTime(1_000);
    expect(order).toEqual(['a', 'b']);
    vi.advanceTimersByTime(999);
    expect(order).toEqual(['a', 'b']);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(['a', 'b', 'again']);
  });

  it('drops every waiting item and timer on clear', () => {
    vi.useFakeTimers();
    const order: string[] = [];
    const lists = new DueLists<string>((item) => order.push(item));
    lists.add('a', 100);
    lists.add('b', 200);
    lists.clear();
    expect(lists.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(order).toEqual([]);
  });

  it('compacts a long-lived list as its items are handed on', () => {
    vi.useFakeTimers();
    let seen = 0;
    const lists = new DueLists<number>(() => void seen++);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 1_000; i++) lists.add(i, 100);
      vi.advanceTimersByTime(50);
    }
    vi.advanceTimersByTime(1_000);
    expect(seen).toBe(5_000);
    expect(lists.size).toBe(0);
  });
});
