import { describe, expect, it } from 'vitest';
import { fake, start } from '../fake-traffic.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';
import { digestOf, limitsSet, made } from './control-fakes.ts';
import { judgeTrace } from './judge-trace.ts';

const starts = 'LIMIT-STARTS-12-PER-MINUTE';

/** `n` accepted starts of new try-ons, one every `gap` seconds from `at`. */
function burst(n: number, at: number, gap: number, tag: string): TrafficExchange[] {
  return Array.from({ length: n }, (_, i) => start(`ton_${tag}${i}`, `key-${tag}-0000${i}`, at + i * gap));
}

describe('rate windows', () => {
  it('12 starts a minute: not near the limit, not exercised', () => {
    expect(judgeTrace(burst(12, 0, 5, 'a')).verdict(starts)).toBe('not-observable');
  });

  it('13 starts in 6 s: a fixed window crossing its boundary explains it, recorded', () => {
    const t = judgeTrace(burst(13, 0, 0.5, 'a'));
    expect(t.verdict(starts)).toBe('pass');
    expect(t.observations(starts)[0]).toMatch(/fixed window/);
  });

  it('26 starts within 30 s: no window of 12 a minute allows it, fails', () => {
    expect(judgeTrace(burst(26, 0, 1, 'a')).verdict(starts)).toBe('fail');
  });

  it('two bursts of 13 half a minute apart: no one phase of fixed windows explains both, fails', () => {
    expect(judgeTrace([...burst(13, 0, 0.3, 'a'), ...burst(13, 30, 0.3, 'b')]).verdict(starts)).toBe('fail');
  });

  it('bursts a minute apart, each over a boundary: a fixed window explains them', () => {
    expect(judgeTrace([...burst(13, 0, 0.3, 'a'), ...burst(13, 60, 0.3, 'b')]).verdict(starts)).toBe('pass');
  });

  it('replays of a try-on are not starts', () => {
    const replays = Array.from({ length: 30 }, (_, i) => start('ton_1', 'key-00000001', i));
    expect(judgeTrace(replays).verdict(starts)).toBe('not-observable');
  });

  it('a declared limit is the one judged; none judges nothing', () => {
    expect(judgeTrace(burst(26, 0, 1, 'a'), { limits: { starts: 120 } }).verdict(starts)).toBe('not-observable');
    expect(judgeTrace(burst(26, 0, 1, 'a'), { limits: 'none' }).verdict(starts)).toBe('not-observable');
  });

  it('a limit raised through test control widens the bound', () => {
    const raise = fake({
      method: 'PUT',
      path: '/_control/accounts/acct_1/limits',
      status: 200,
      json: {},
      body: { startsPerMinute: 100 },
      at: 0,
    });
    expect(judgeTrace([raise, ...burst(26, 1, 1, 'a')]).verdict(starts)).toBe('not-observable');
  });

  it('a test-control clock move starts the windows afresh', () => {
    const clock = fake({
      method: 'POST',
      path: '/_control/clock/advance',
      status: 200,
      json: {},
      body: { seconds: 61 },
      at: 14,
    });
    expect(judgeTrace([...burst(13, 0, 1, 'a'), clock, ...burst(13, 15, 1, 'b')]).verdict(starts)).not.toBe('fail');
  });

  it("test control's limits for one account are that account's alone", () => {
    const a = digestOf('vto_live_a');
    const b = digestOf('vto_live_b');
    const own = (account: string, tag: string) =>
      Array.from({ length: 26 }, (_, i) => start(`ton_${tag}${i}`, `key-${tag}-0000${i}`, 2 + i, account));
    const setup = [
      made('acct_a', 'vto_live_a', 0),
      made('acct_b', 'vto_live_b', 0),
      limitsSet('acct_a', { startsPerMinute: 100 }, 1),
    ];
    expect(judgeTrace([...setup, ...own(a, 'a')]).verdict(starts)).toBe('not-observable');
    expect(judgeTrace([...setup, ...own(b, 'b')]).verdict(starts)).toBe('fail');
  });

  it('an account set to 12 starts is judged at 12 whatever others were raised to', () => {
    const a = digestOf('vto_live_a');
    const trace = [
      made('acct_a', 'vto_live_a', 0),
      made('acct_b', 'vto_live_b', 0),
      limitsSet('acct_b', { startsPerMinute: 100000 }, 1),
      limitsSet('acct_a', { startsPerMinute: 12 }, 1),
      ...Array.from({ length: 26 }, (_, i) => start(`ton_a${i}`, `key-a-0000${i}`, 2 + i, a)),
    ];
    expect(judgeTrace(trace).verdict(starts)).toBe('fail');
  });

  it("a fresh account's burst within its first minute is over the limit whatever its own window's phase", () => {
    const a = digestOf('vto_live_a');
    const b = digestOf('vto_live_b');
    const fresh = (account: string, at: number, tag: string) =>
      Array.from({ length: 13 }, (_, i) => start(`ton_${tag}${i}`, `key-${tag}-0000${i}`, at + i * 0.01, account));
    // One burst: a boundary of windows aligned on the server's clock may fall inside it.
    const one = judgeTrace([made('acct_a', 'vto_live_a', 0), ...fresh(a, 1, 'a')]);
    expect(one.verdict(starts)).toBe('pass');
    // A second, on another fresh account seconds later: no one alignment puts a boundary in both.
    const two = judgeTrace([
      made('acct_a', 'vto_live_a', 0),
      made('acct_b', 'vto_live_b', 0),
      ...fresh(a, 1, 'a'),
      ...fresh(b, 5, 'b'),
    ]);
    expect(two.verdict(starts)).toBe('fail');
  });

  it('polls answered 404 count: "60 requests per minute per account"', () => {
    const a = digestOf('vto_live_a');
    const missing = (i: number, at: number, account: string) =>
      fake({
        path: `/api/v1/tryons/ton_probe_${i}`,
        status: 404,
        json: { error: 'No try-on with that id on this account.', code: 'NOT_FOUND' },
        at,
        account,
      });
    const burst = (account: string, at: number) =>
      Array.from({ length: 61 }, (_, i) => missing(i, at + i * 0.01, account));
    const b = digestOf('vto_live_b');
    const accounts = [made('acct_a', 'vto_live_a', 0), made('acct_b', 'vto_live_b', 0)];
    const t = judgeTrace([...accounts, ...burst(a, 1), ...burst(b, 1.7)]);
    expect(t.verdict('LIMIT-POLLS-60-PER-MINUTE')).toBe('fail');
  });
});
