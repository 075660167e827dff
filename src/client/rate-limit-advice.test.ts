/** What an answer tells the pacer: Retry-After first, then a RateLimit with nothing left, and the advertised quotas. */
import { describe, expect, it } from 'vitest';
import { limitAdviceOf } from './rate-limit-advice.ts';

const answer = (status: number, headers: Record<string, string>) => ({ status, headers });

describe('limitAdviceOf', () => {
  it("blocks for a 429's Retry-After, which takes precedence over RateLimit's window", () => {
    expect(limitAdviceOf(answer(429, { 'retry-after': '20', ratelimit: '"starts";r=0;t=50' }))).toEqual({
      block: { seconds: 20, because: 'Retry-After of a 429' },
    });
  });

  it('blocks for the effective window of a quota with nothing left, on any answer', () => {
    expect(limitAdviceOf(answer(200, { ratelimit: '"burst";r=3;t=1,"starts";r=0;t=41' }))).toEqual({
      block: { seconds: 41, because: 'RateLimit: no quota left' },
    });
  });

  it('reads the quotas a target advertises in requests, and leaves other units alone', () => {
    const policy = '"starts";q=120;w=60,"bytes";q=1000000;qu="content-bytes";w=60,"open";q=5';
    expect(limitAdviceOf(answer(202, { 'ratelimit-policy': policy }))).toEqual({
      quotas: [{ limit: 120, windowMs: 60_000 }],
    });
  });

  it('ignores malformed fields, a Retry-After on a success, and no answer at all', () => {
    expect(limitAdviceOf(answer(200, { 'retry-after': '30', ratelimit: 'r=0', 'ratelimit-policy': 'q=1' }))).toEqual(
      {},
    );
    expect(limitAdviceOf(undefined)).toEqual({});
  });
});
