import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.ts';

function clockAt(start: number) {
  let now = start;
  return { now: () => now, set: (t: number) => void (now = t) };
}

describe('RateLimiter', () => {
  it('lets `limit` requests through a rolling minute and answers the next with the exact wait', () => {
    const clock = clockAt(0);
    const limiter = new RateLimiter(clock);
    for (let i = 0; i < 12; i++) {
      clock.set(i * 1_000);
      expect(limiter.take('a', 'starts', 12).allowed).toBe(true);
    }
    clock.set(30_000);
    expect(limiter.take('a', 'starts', 12)).toEqual({ allowed: false, limit: 12, retryAfterSeconds: 30 });
    clock.set(60_000);
    expect(limiter.take('a', 'starts', 12).allowed).toBe(true);
    expect(limiter.take('a', 'starts', 12)).toEqual({ allowed: false, limit: 12, retryAfterSeconds: 1 });
  });

  it('stays exact across compaction of a long window log', () => {
    const clock = clockAt(0);
    const limiter = new RateLimiter(clock);
    // 5,000 requests a second for 3 minutes, under a limit of 600,000 a minute: all allowed.
    let allowed = 0;
    for (let ms = 0; ms < 180_000; ms += 10) {
      clock.set(ms);
      for (let k = 0; k < 50; k++) if (limiter.take('a', 'polls', 600_000).allowed) allowed++;
    }
    expect(allowed).toBe(900_000);
    // A limit just under what the last minute holds: the answer names the wait to the oldest that must go.
    const decision = limiter.take('a', 'polls', 299_950);
    expect(decision.allowed).toBe(false);
  });

  it('keeps accounts and buckets apart', () => {
    const limiter = new RateLimiter(clockAt(0));
    expect(limiter.take('a', 'starts', 1).allowed).toBe(true);
    expect(limiter.take('a', 'starts', 1).allowed).toBe(false);
    expect(limiter.take('a', 'polls', 1).allowed).toBe(true);
    expect(limiter.take('b', 'starts', 1).allowed).toBe(true);
  });
});
