import { describe, expect, it } from 'vitest';
import { fake } from '../fake-traffic.ts';
import { judgeTrace } from './judge-trace.ts';

const keyless = (status: number, json: unknown) =>
  fake({ path: '/api/v1/tryons/ton_1', status, json, at: 0, account: 'none' });

describe('keyless requests', () => {
  it('a request of an operation without a key answered 401: passes; served: fails AUTH-BEARER-REQUIRED', () => {
    const refused = keyless(401, { error: 'Missing, malformed or revoked API key.', code: 'INVALID_API_KEY' });
    expect(judgeTrace([refused]).verdict('AUTH-BEARER-REQUIRED')).toBe('pass');
    const served = keyless(200, { id: 'ton_1', status: 'pending', resultUrl: null });
    expect(judgeTrace([served]).verdict('AUTH-BEARER-REQUIRED')).toBe('fail');
  });

  it('a result image needs no key', () => {
    const image = fake({ path: '/i/r_1.png', status: 200, at: 0, account: 'none', bytes: Buffer.from('x') });
    expect(judgeTrace([image]).verdict('AUTH-BEARER-REQUIRED')).toBe('not-observable');
  });
});
