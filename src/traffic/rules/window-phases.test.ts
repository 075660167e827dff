import { describe, expect, it } from 'vitest';
import { allPhases, narrowPhases, widenPhases } from './window-phases.ts';

describe('window phases', () => {
  it('a burst keeps only the phases whose boundary falls inside it', () => {
    expect(narrowPhases(allPhases(60), 10, 15, 60)).toEqual([[10, 15]]);
  });

  it('an arc across the end of the window wraps', () => {
    expect(narrowPhases(allPhases(60), 58, 63, 60)).toEqual([
      [58, 60],
      [0, 3],
    ]);
  });

  it('two bursts no single phase explains leave none', () => {
    expect(narrowPhases(narrowPhases(allPhases(60), 0, 5, 60), 30, 35, 60)).toEqual([]);
  });

  it('two bursts a minute apart keep the common phases', () => {
    expect(narrowPhases(narrowPhases(allPhases(60), 0, 5, 60), 62, 70, 60)).toEqual([[2, 5]]);
  });

  it('a burst over a whole window narrows nothing', () => {
    expect(narrowPhases([[1, 2]], 0, 60, 60)).toEqual([[1, 2]]);
  });

  it('widening by an uncertainty keeps phases a little off still possible, merged', () => {
    expect(widenPhases([[10, 15]], 2, 60)).toEqual([[8, 17]]);
    expect(widenPhases([[1, 2]], 3, 60)).toEqual([
      [0, 5],
      [58, 60],
    ]);
    expect(widenPhases([[10, 15]], 40, 60)).toEqual([[0, 60]]);
  });
});
