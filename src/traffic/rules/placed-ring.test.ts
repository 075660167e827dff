import { describe, expect, it } from 'vitest';
import { PlacedRing } from './placed-ring.ts';

const at = (from: number, segment: number | 'none' = 1, half = 0) => ({
  from,
  to: from + 5,
  segment: segment === 'none' ? undefined : segment,
  half,
});

describe('PlacedRing', () => {
  it('keeps the latest `max` requests across growth and wrap-around', () => {
    const ring = new PlacedRing();
    for (let i = 0; i < 30; i++) ring.push(at(i * 10), 'k', 13);
    expect(ring.length).toBe(13);
    // The 13 latest: 170 … 290.
    expect(ring.span()).toEqual({ from: 170, to: 295, half: 0, segment: 1 });
    for (let i = 30; i < 50; i++) ring.push(at(i * 10), 'k', 20);
    expect(ring.length).toBe(20);
    expect(ring.span()).toMatchObject({ from: 300, to: 495 });
  });

  it('names a shared segment only when every request fell in it', () => {
    const ring = new PlacedRing();
    ring.push(at(0, 2, 3), 'k', 5);
    ring.push(at(10, 2, 1), 'k', 5);
    expect(ring.span()).toEqual({ from: 0, to: 15, half: 3, segment: 2 });
    ring.push(at(20, 'none'), 'k', 5);
    expect(ring.span().segment).toBeUndefined();
    ring.clear();
    ring.push(at(0, 'none'), 'k', 5);
    expect(ring.span().segment).toBeUndefined();
  });

  it('counts the different keys of the kept requests', () => {
    const ring = new PlacedRing();
    expect(ring.keys()).toBe(0);
    for (let i = 0; i < 10; i++) ring.push(at(i), 'a', 4);
    expect(ring.keys()).toBe(1);
    ring.push(at(11), 'b', 4);
    ring.push(at(12), 'c', 4);
    expect(ring.keys()).toBe(3);
    for (let i = 0; i < 4; i++) ring.push(at(20 + i), 'a', 4);
    expect(ring.keys()).toBe(1);
  });
});
