import { describe, expect, it } from 'vitest';
import { fake, start } from '../fake-traffic.ts';
import { clockMoved } from './control-fakes.ts';
import { judgeTrace } from './judge-trace.ts';

const wait = 'LIMIT-429-RETRY-AFTER';
const limited = (at: number, retryAfter = '10') =>
  fake({
    method: 'POST',
    path: '/api/v1/tryons',
    status: 429,
    body: { personImageId: 'img_p', garmentImageId: 'img_g', consent: true },
    headers: { 'idempotency-key': 'key-00000001' },
    json: { error: 'Too many starts.', code: 'RATE_LIMITED' },
    responseHeaders: { 'retry-after': retryAfter },
    at,
  });

describe('retry waits', () => {
  it('the retry after waiting Retry-After let through passes; refused again fails', () => {
    expect(judgeTrace([limited(0), start('ton_1', 'key-00000001', 11)]).verdict(wait)).toBe('pass');
    expect(judgeTrace([limited(0), limited(11)]).verdict(wait)).toBe('fail');
  });

  it("test control's clock moves count as time waited", () => {
    const moved = fake({
      method: 'POST',
      path: '/_control/clock/advance',
      status: 200,
      body: { seconds: 10 },
      json: { now: '2026-11-27T09:00:10.000Z' },
      at: 1,
      account: 'none',
    });
    expect(judgeTrace([limited(0), moved, limited(2)]).verdict(wait)).toBe('fail');
    expect(judgeTrace([limited(0), clockMoved('2026-11-27T09:00:10.000Z', 1), limited(2)]).verdict(wait)).not.toBe(
      'fail',
    );
  });

  it('a retry sent before the wait, or after another start of the account, is not judged', () => {
    expect(judgeTrace([limited(0), limited(5)]).verdict(wait)).not.toBe('fail');
    expect(judgeTrace([limited(0), start('ton_9', 'key-00000009', 3), limited(11)]).verdict(wait)).not.toBe('fail');
  });
});
