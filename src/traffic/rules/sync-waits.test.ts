import { describe, expect, it } from 'vitest';
import { fake } from '../fake-traffic.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';
import { judgeTrace } from './judge-trace.ts';

const wait = 'SYNC-WAIT-ABOUT-55-SECONDS';
const pending = { id: 'ton_1', status: 'pending', pollUrl: '/api/v1/tryons/ton_1' };

/** A sync start answered `status` after `ms`. */
function sync(status: number, ms: number, json: unknown = pending): TrafficExchange {
  const te = fake({
    method: 'POST',
    path: '/api/v1/tryons/sync',
    status,
    body: { personImageId: 'img_p', garmentImageId: 'img_g', consent: true },
    headers: { 'idempotency-key': `key-sync-${ms}` },
    json,
    at: 0,
  });
  return { ...te, endedAt: te.startedAt + ms };
}

describe('sync waits', () => {
  it('a 202 about 55 s after the request passes; one at once fails', () => {
    expect(judgeTrace([sync(202, 55_100)]).verdict(wait)).toBe('pass');
    expect(judgeTrace([sync(202, 40)]).verdict(wait)).toBe('fail');
  });

  it('an answer or a drop long past the wait fails', () => {
    expect(judgeTrace([sync(202, 75_000)]).verdict(wait)).toBe('fail');
    const { response: _none, ...dropped } = sync(202, 80_000).exchange;
    expect(judgeTrace([{ ...sync(202, 80_000), exchange: dropped, dropped: true }]).verdict(wait)).toBe('fail');
  });

  it('a quick 200 with the final state is no wait to judge', () => {
    const done = { id: 'ton_1', status: 'success', resultUrl: 'http://127.0.0.1:8787/i/ton_1.png' };
    expect(judgeTrace([sync(200, 90, done)]).verdict(wait)).toBe('not-observable');
  });

  it('the 202 is shaped as the create answer: without pollUrl it fails SYNC-202-STILL-PENDING', () => {
    expect(judgeTrace([sync(202, 55_100)]).verdict('SYNC-202-STILL-PENDING')).toBe('pass');
    const bare = { id: 'ton_1', status: 'pending' };
    expect(judgeTrace([sync(202, 55_100, bare)]).verdict('SYNC-202-STILL-PENDING')).toBe('fail');
  });
});
