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

  it("an answer only an account can have fails: a read's 404, or 402 INSUFFICIENT_CREDITS", () => {
    const notFound = keyless(404, { error: 'No try-on with that id on this account.', code: 'NOT_FOUND' });
    expect(judgeTrace([notFound]).verdict('AUTH-BEARER-REQUIRED')).toBe('fail');
    const refused = fake({
      method: 'POST',
      path: '/api/v1/tryons',
      status: 400,
      body: { consent: true },
      json: { error: 'Missing Idempotency-Key.', code: 'MISSING_IDEMPOTENCY_KEY' },
      at: 0,
      account: 'none',
    });
    expect(judgeTrace([refused]).verdict('AUTH-BEARER-REQUIRED')).toBe('not-observable');
  });
});
