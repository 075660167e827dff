import { describe, expect, it } from 'vitest';
import { fake, start } from '../fake-traffic.ts';
import { digestOf, limitsSet, made } from './control-fakes.ts';
import { judgeTrace } from './judge-trace.ts';

const per = 'LIMIT-RATES-PER-ACCOUNT';
const b = digestOf('vto_live_b');
const limited = (at: number, account: string) =>
  fake({
    method: 'POST',
    path: '/api/v1/tryons',
    status: 429,
    body: { personImageId: 'img_p', garmentImageId: 'img_g', consent: true },
    headers: { 'idempotency-key': `key-limited-${at}` },
    json: { error: 'Too many starts.', code: 'RATE_LIMITED' },
    responseHeaders: { 'retry-after': '30' },
    at,
    account,
  });

describe('fresh account limits', () => {
  it("a fresh account's first start refused 429 fails LIMIT-RATES-PER-ACCOUNT; let through passes", () => {
    expect(judgeTrace([made('acct_b', 'vto_live_b', 0), limited(1, b)]).verdict(per)).toBe('fail');
    expect(judgeTrace([made('acct_b', 'vto_live_b', 0), start('ton_1', 'key-00000001', 1, b)]).verdict(per)).toBe(
      'pass',
    );
  });

  it('a 429 after its own starts, on an account not seen made, or at a limit of 0 is not judged', () => {
    const own = [made('acct_b', 'vto_live_b', 0), start('ton_1', 'key-00000001', 1, b), limited(2, b)];
    expect(judgeTrace(own).verdict(per)).not.toBe('fail');
    expect(judgeTrace([limited(1, b)]).verdict(per)).toBe('not-observable');
    const zero = [made('acct_b', 'vto_live_b', 0), limitsSet('acct_b', { startsPerMinute: 0 }, 0.5), limited(1, b)];
    expect(judgeTrace(zero).verdict(per)).not.toBe('fail');
  });

  it('another start of the account in flight when the 429 came leaves it unjudged', () => {
    const inFlight = { ...start('ton_1', 'key-00000001', 0.9, b), endedAt: limited(5, b).endedAt };
    expect(judgeTrace([made('acct_b', 'vto_live_b', 0), limited(1, b), inFlight]).verdict(per)).not.toBe('fail');
  });
});
