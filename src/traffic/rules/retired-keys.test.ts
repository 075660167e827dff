import { describe, expect, it } from 'vitest';
import { fake } from '../fake-traffic.ts';
import { digestOf, made, revoked, rotated } from './control-fakes.ts';
import { judgeTrace } from './judge-trace.ts';

const read = (apiKey: string, status: number, at: number) =>
  fake({
    path: '/api/v1/tryons/ton_1',
    status,
    json:
      status === 200 ? { id: 'ton_1', status: 'pending', resultUrl: null } : { error: 'No.', code: 'INVALID_API_KEY' },
    at,
    account: digestOf(apiKey),
  });

describe('retired keys', () => {
  it('a revoked key served fails AUTH-REVOKED-KEY-401; refused 401 passes', () => {
    const before = [made('acct_1', 'vto_live_a', 0), revoked('acct_1', 1)];
    expect(judgeTrace([...before, read('vto_live_a', 200, 2)]).verdict('AUTH-REVOKED-KEY-401')).toBe('fail');
    expect(judgeTrace([...before, read('vto_live_a', 401, 2)]).verdict('AUTH-REVOKED-KEY-401')).toBe('pass');
  });

  it('a replaced key served fails AUTH-ONE-ACTIVE-KEY; the new key is served', () => {
    const before = [made('acct_1', 'vto_live_a', 0), rotated('acct_1', 'vto_live_b', 1)];
    const t = judgeTrace([...before, read('vto_live_b', 200, 2), read('vto_live_a', 200, 3)]);
    expect(t.verdict('AUTH-ONE-ACTIVE-KEY')).toBe('fail');
    const ok = judgeTrace([...before, read('vto_live_b', 200, 2), read('vto_live_a', 401, 3)]);
    expect(ok.verdict('AUTH-ONE-ACTIVE-KEY')).toBe('pass');
  });

  it('a request begun before the answer that retired its key is not judged', () => {
    const early = { ...read('vto_live_a', 200, 0.5) };
    const t = judgeTrace([made('acct_1', 'vto_live_a', 0), revoked('acct_1', 1), early]);
    expect(t.verdict('AUTH-REVOKED-KEY-401')).toBe('not-observable');
  });
});
