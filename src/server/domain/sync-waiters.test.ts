import { afterEach, describe, expect, it, vi } from 'vitest';
import { SyncWaiters, type WaitOutcome } from './sync-waiters.ts';

afterEach(() => void vi.useRealTimers());

function holdAll(waiters: SyncWaiters, ids: readonly string[], ms: number) {
  const outcomes = new Map<number, WaitOutcome[]>();
  const handles = ids.map((id, i) =>
    waiters.hold(id, ms, i, (waiter, outcome) =>
      outcomes.set(waiter.subject, [...(outcomes.get(waiter.subject) ?? []), outcome]),
    ),
  );
  return { outcomes, handles };
}

describe('SyncWaiters', () => {
  it('wakes every waiter of a try-on once, with finished, and leaves the others held', () => {
    vi.useFakeTimers();
    const waiters = new SyncWaiters();
    const { outcomes } = holdAll(waiters, ['a', 'b', 'a'], 1_000);
    expect(waiters.size).toBe(3);
    waiters.notify('a');
    waiters.notify('a');
    expect(outcomes.get(0)).toEqual(['finished']);
    expect(outcomes.get(2)).toEqual(['finished']);
    expect(outcomes.has(1)).toBe(false);
    expect(waiters.size).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(outcomes.get(1)).toEqual(['timeout']);
    expect(waiters.size).toBe(0);
  });

  it('times each waiter out after its own wait, in the order they fall due, across wait lengths', () => {
    vi.useFakeTimers();
    const waiters = new SyncWaiters();
    const order: string[] = [];
    waiters.hold('a', 1_000, 'a', (w, o) => order.push(`${w.subject} ${o}`));
    vi.advanceTimersByTime(300);
    waiters.hold('b', 1_000, 'b', (w, o) => order.push(`${w.subject} ${o}`));
    waiters.hold('c', 200, 'c', (w, o) => order.push(`${w.subject} ${o}`));
    vi.advanceTimersByTime(199);
    expect(order).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(['c timeout']);
    vi.advanceTimersByTime(499);
    expect(order).toEqual(['c timeout']);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(['c timeout', 'a timeout']);
    vi.advanceTimersByTime(300);
    expect(order).toEqual(['c timeout', 'a timeout', 'b timeout']);
    expect(waiters.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets a released waiter go without waking it, and keeps no timer once none is held', () => {
    vi.useFakeTimers();
    const waiters = new SyncWaiters();
    const { outcomes, handles } = holdAll(waiters, ['a', 'a', 'b'], 1_000);
    waiters.release(handles[1]!);
    waiters.release(handles[1]!);
    expect(waiters.size).toBe(2);
    waiters.notify('a');
    expect(outcomes.get(0)).toEqual(['finished']);
    expect(outcomes.has(1)).toBe(false);
    waiters.release(handles[2]!);
    expect(waiters.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5_000);
    expect(outcomes.has(1)).toBe(false);
    expect(outcomes.has(2)).toBe(false);
  });

  it('holds a waiter added from inside a wake, with its own full wait', () => {
    vi.useFakeTimers();
    const waiters = new SyncWaiters();
    const order: string[] = [];
    waiters.hold('a', 1_000, undefined, () => {
      order.push('a');
      waiters.hold('a', 1_000, 'again', (w, o) => order.push(`${w.subject} ${o}`));
    });
    waiters.hold('b', 1_000, 'b', (w, o) => order.push(`${w.subject} ${o}`));
    vi.advanceTimersByTime(1_000);
    expect(order).toEqual(['a', 'b timeout']);
    expect(waiters.size).toBe(1);
    vi.advanceTimersByTime(999);
    expect(order).toEqual(['a', 'b timeout']);
    vi.advanceTimersByTime(1);
    expect(order).toEqual(['a', 'b timeout', 'again timeout']);
  });

  it('keeps the other waiters of a try-on when its first, middle or last one is let go', () => {
    vi.useFakeTimers();
    for (const gone of [0, 1, 2]) {
      const waiters = new SyncWaiters();
      const { outcomes, handles } = holdAll(waiters, ['a', 'a', 'a'], 1_000);
      waiters.release(handles[gone]!);
      waiters.notify('a');
      expect([0, 1, 2].map((i) => outcomes.get(i))).toEqual(
        [0, 1, 2].map((i) => (i === gone ? undefined : ['finished'])),
      );
      expect(waiters.size).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    }
  });

  it('wakes a waiter held from inside a notice only at the next notice of its try-on', () => {
    vi.useFakeTimers();
    const waiters = new SyncWaiters();
    const order: string[] = [];
    waiters.hold('a', 1_000, 'first', (w, o) => {
      order.push(`${w.subject} ${o}`);
      waiters.hold('a', 1_000, 'again', (again, o2) => order.push(`${again.subject} ${o2}`));
    });
    waiters.hold('a', 1_000, 'second', (w, o) => order.push(`${w.subject} ${o}`));
    waiters.notify('a');
    expect(order).toEqual(['first finished', 'second finished']);
    expect(waiters.size).toBe(1);
    waiters.notify('a');
    expect(order).toEqual(['first finished', 'second finished', 'again finished']);
    expect(waiters.size).toBe(0);
  });
});
