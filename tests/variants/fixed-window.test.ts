import { describe, expect, it } from 'vitest';
import { CommittedRollingWindow, FixedWindows } from './fixed-window.ts';

describe('FixedWindows', () => {
  it('admits the limit per clock minute and refuses the next with the seconds left in that minute', () => {
    const w = new FixedWindows();
    const start = 10 * 60_000 + 15_000; // 15 s into a minute
    for (let i = 0; i < 12; i++) expect(w.take('a', 12, start + i)).toEqual({ admitted: true });
    expect(w.take('a', 12, start + 20)).toEqual({ admitted: false, retryAfterSeconds: 45 });
    expect(w.take('a', 12, start + 44_500)).toEqual({ admitted: false, retryAfterSeconds: 1 });
  });

  it('starts every minute empty, so a burst across the boundary gets twice the limit in a few seconds', () => {
    const w = new FixedWindows();
    const edge = 7 * 60_000;
    for (let i = 0; i < 12; i++) expect(w.take('a', 12, edge - 1_000).admitted).toBe(true);
    expect(w.take('a', 12, edge - 500).admitted).toBe(false);
    for (let i = 0; i < 12; i++) expect(w.take('a', 12, edge + 1).admitted).toBe(true);
    expect(w.take('a', 12, edge + 2).admitted).toBe(false);
  });

  it('keeps windows apart by key', () => {
    const w = new FixedWindows();
    expect(w.take('a', 1, 0).admitted).toBe(true);
    expect(w.take('a', 1, 1).admitted).toBe(false);
    expect(w.take('b', 1, 1).admitted).toBe(true);
  });
});

describe('CommittedRollingWindow', () => {
  it('counts only committed requests; released ones leave room', () => {
    const w = new CommittedRollingWindow();
    for (let i = 0; i < 3; i++) {
      expect(w.reserve('a', 2, i).admitted).toBe(true);
      w.release('a');
    }
    expect(w.reserve('a', 2, 10).admitted).toBe(true);
    w.commit('a', 10);
    expect(w.reserve('a', 2, 20).admitted).toBe(true);
    w.commit('a', 20);
    expect(w.reserve('a', 2, 30)).toEqual({ admitted: false, retryAfterSeconds: 60 });
    expect(w.reserve('a', 2, 60_011).admitted).toBe(true);
  });

  it('holds a place for a request in flight', () => {
    const w = new CommittedRollingWindow();
    expect(w.reserve('a', 1, 0).admitted).toBe(true);
    expect(w.reserve('a', 1, 1)).toEqual({ admitted: false, retryAfterSeconds: 60 });
    w.release('a');
    expect(w.reserve('a', 1, 2).admitted).toBe(true);
  });
});
