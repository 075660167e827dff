import { describe, expect, it } from 'vitest';
import { ServerClock } from './server-clock.ts';

describe('server clock', () => {
  it('places requests on the server clock: exactly within a segment, moved by what the answers say', () => {
    const clock = new ServerClock();
    clock.saw(10_000, 0, 0, false);
    expect(clock.place(100, 200)).toEqual({ from: 10_100, to: 10_200, segment: 0, half: 0 });
    // A move answered between 1,000 and 1,010 ms with the server at 61,005: offset 60,000 ± 5.
    clock.saw(61_005, 1_000, 1_010, true);
    const after = clock.place(2_000, 2_100);
    expect(after.segment).not.toBe(0);
    expect(clock.place(5_000, 5_001).segment).toBe(after.segment);
    expect(after.from).toBe(62_000);
    expect(after.half).toBe(5);
    // A request that ran while the move was answered fits no one segment.
    expect(clock.place(990, 1_005).segment).toBeUndefined();
    expect(clock.leastAt(3_000)).toBe(62_995);
  });

  it('a move that does not say the time starts a new epoch', () => {
    const clock = new ServerClock();
    clock.movedUnknown(5);
    expect(clock.epoch).toBe(1);
    expect(clock.leastAt(10)).toBeUndefined();
  });
});
