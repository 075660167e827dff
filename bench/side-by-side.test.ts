import { describe, expect, it } from 'vitest';
import { goalCell, roundsOf } from './side-by-side.ts';

describe('roundsOf', () => {
  it('gives the goal cell its own rounds when they are more', () => {
    expect(roundsOf({ rounds: 3, goalCellRounds: 5 }, goalCell.endpoint, goalCell.connections)).toBe(5);
  });

  it('never gives the goal cell fewer rounds than the others', () => {
    expect(roundsOf({ rounds: 3, goalCellRounds: 2 }, goalCell.endpoint, goalCell.connections)).toBe(3);
    expect(roundsOf({ rounds: 3 }, goalCell.endpoint, goalCell.connections)).toBe(3);
  });

  it('leaves every other cell at the common rounds', () => {
    expect(roundsOf({ rounds: 3, goalCellRounds: 5 }, 'GET /tryons/{id}', 100)).toBe(3);
    expect(roundsOf({ rounds: 3, goalCellRounds: 5 }, 'GET /account', 10)).toBe(3);
  });
});
