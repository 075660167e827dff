import { describe, expect, it } from 'vitest';
import { CappedMap } from './capped-map.ts';

describe('CappedMap', () => {
  it('lets the least recently used go past its cap, and counts it', () => {
    const map = new CappedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.get('a');
    map.set('c', 3);
    expect(map.get('b')).toBeUndefined();
    expect(map.get('a')).toBe(1);
    expect(map.size).toBe(2);
    expect(map.evicted).toBe(1);
  });

  it('getOrMake makes once', () => {
    const map = new CappedMap<string, number[]>(1);
    map.getOrMake('x', () => []).push(1);
    expect(map.getOrMake('x', () => [])).toEqual([1]);
  });
});
