import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  append,
  RateLimiter,
  requestAt,
  windowMs,
  type Bucket,
  type RateDecision,
  type WindowLog,
} from './rate-limiter.ts';

const emptyLog = (): WindowLog => ({ times: [], counts: [], head: 0, count: 0 });

/** The model the limiter must match: a plain log of one timestamp per request. */
class OneEntryPerRequest {
  readonly #log = new Map<string, { times: number[]; head: number }>();

  take(now: number, accountId: string, bucket: Bucket, limit: number): RateDecision {
    const key = `${accountId}\u0000${bucket}`;
    const log = this.#log.get(key) ?? { times: [], head: 0 };
    this.#log.set(key, log);
    const { times } = log;
    while (log.head < times.length && (times[log.head] ?? now) <= now - windowMs) log.head++;
    const count = times.length - log.head;
    if (count >= limit) {
      const oldest = times[times.length - limit] ?? now;
      return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    times.push(now);
    const first = times[log.head] ?? now;
    return {
      allowed: true,
      limit,
      remaining: limit - count - 1,
      resetSeconds: Math.ceil((first + windowMs - now) / 1000),
    };
  }
}

describe('the run-length window log', () => {
  it('keeps one entry per millisecond, however many requests came in it', () => {
    const log = emptyLog();
    for (let i = 0; i < 10_000; i++) append(log, 5);
    append(log, 6);
    append(log, 6);
    expect(log).toEqual({ times: [5, 6], counts: [10_000, 2], head: 0, count: 10_002 });
  });

  it('starts a new entry after expired ones, even at the same millisecond', () => {
    const log: WindowLog = { times: [5], counts: [3], head: 1, count: 0 };
    append(log, 5);
    expect(log).toEqual({ times: [5, 5], counts: [3, 1], head: 1, count: 1 });
  });

  it('finds the n-th request of the window, counting from the oldest', () => {
    const log: WindowLog = { times: [1, 2, 3, 4], counts: [9, 2, 1, 3], head: 1, count: 6 };
    expect([0, 1, 2, 3, 4, 5].map((n) => requestAt(log, n))).toEqual([2, 2, 3, 4, 4, 4]);
    expect(requestAt(log, 6)).toBeUndefined();
    expect(requestAt(log, -1)).toBeUndefined();
    expect(requestAt(log, 0.5)).toBeUndefined();
  });

  it('answers exactly as a log of one entry per request, whatever the arrivals and limits', () => {
    const step = fc.record({
      // Many requests in the same millisecond, and gaps up to past the window.
      advance: fc.oneof(
        fc.constant(0),
        fc.constant(0),
        fc.integer({ min: 1, max: 999 }),
        fc.integer({ min: 1_000, max: 70_000 }),
      ),
      account: fc.constantFrom('a', 'b'),
      bucket: fc.constantFrom<Bucket>('starts', 'polls'),
      limit: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(0), fc.constant(1.5)),
      repeat: fc.integer({ min: 1, max: 8 }),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), (steps) => {
        let now = 1_700_000_000_000;
        const limiter = new RateLimiter({ now: () => now });
        const model = new OneEntryPerRequest();
        for (const s of steps) {
          now += s.advance;
          for (let i = 0; i < s.repeat; i++)
            expect(limiter.take(s.account, s.bucket, s.limit)).toEqual(model.take(now, s.account, s.bucket, s.limit));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stays exact across compaction, with many requests per millisecond', () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => now });
    const model = new OneEntryPerRequest();
    // 3,000 distinct milliseconds a minute for 3 minutes (compaction past 1,024 expired entries), 3 requests in each.
    for (; now < 180_000; now += 20) {
      for (let k = 0; k < 3; k++)
        expect(limiter.take('a', 'polls', 9_000)).toEqual(model.take(now, 'a', 'polls', 9_000));
    }
    expect(limiter.take('a', 'polls', 8_990)).toEqual(model.take(now, 'a', 'polls', 8_990));
  });
});
