import { describe, expect, it } from 'vitest';
import { balance, bob, fake, poll, start } from './fake-traffic.ts';
import { reportProblems } from '../report/read-report.ts';
import { PassiveJudge } from './passive-judge.ts';
import type { TrafficExchange } from './traffic-exchange.ts';

function judged(traffic: readonly TrafficExchange[], options = {}) {
  const judge = new PassiveJudge(options);
  for (const te of traffic) judge.observe(te);
  const report = judge.report({ final: true });
  const of = (id: string) => report.requirements.find((r) => r.id === id);
  return { report, of, verdict: (id: string) => of(id)?.verdict };
}

describe('PassiveJudge', () => {
  it('a conforming start, polls and a final read pass what they exercise, nothing else', () => {
    const { verdict, report, of } = judged([
      start('ton_1', 'key-00000001', 0),
      poll('ton_1', 'pending', 2),
      poll('ton_1', 'success', 4),
      poll('ton_1', 'success', 6),
    ]);
    expect(report.source).toBe('traffic');
    expect(report.traffic?.exchanges).toBe(4);
    expect(verdict('CREATE-RESPONSE-STATUS-PENDING')).toBe('pass');
    expect(verdict('STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED')).toBe('pass');
    expect(verdict('STATE-PENDING-TO-SUCCESS')).toBe('pass');
    // Not exercised: no replay, no 429, no balance read.
    expect(verdict('CREATE-IDEMPOTENCY-REPLAY')).toBe('not-observable');
    expect(of('CREATE-IDEMPOTENCY-REPLAY')?.reason).toMatch(/^not exercised: /);
    expect(verdict('LIMIT-429-RETRY-AFTER')).toBe('not-observable');
    expect(verdict('SVC-ONE-CREDIT-PER-FINISHED-TRYON')).toBe('not-observable');
    expect(report.requirements.filter((r) => r.verdict === 'fail')).toEqual([]);
    // compare and every writer read it as a run's report.
    expect(reportProblems(JSON.parse(JSON.stringify(report)))).toEqual([]);
  });

  it('nothing exercised is never a pass', () => {
    const { report } = judged([]);
    expect(report.requirements.filter((r) => r.verdict === 'pass')).toEqual([]);
    expect(report.summary.passRate).toBeNull();
  });

  it('a per-exchange check fails its requirement, with the exchange as evidence', () => {
    const { verdict, of } = judged([
      fake({ path: '/api/v1/tryons/ton_9', status: 404, json: { message: 'nope' }, at: 0 }),
    ]);
    expect(verdict('ERR-ENVELOPE-SHAPE')).toBe('fail');
    expect(of('ERR-ENVELOPE-SHAPE')?.failures[0]?.evidence[0]?.curl).toContain('/api/v1/tryons/ton_9');
  });

  it('evidence is redacted: nothing shaped like a key reaches the report', () => {
    const { report } = judged([
      fake({
        path: '/api/v1/tryons/x',
        status: 500,
        json: { error: 'vto_live_ABCdef123456 leaked', code: 'X' },
        at: 0,
      }),
    ]);
    expect(JSON.stringify(report)).not.toContain('vto_live_ABCdef123456');
  });

  it('accounts are apart: one account reading another try-on id is not a transition', () => {
    const { verdict } = judged([poll('ton_1', 'success', 0), poll('ton_1', 'pending', 2, bob)]);
    expect(verdict('STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED')).toBe('not-observable');
  });

  it('state is bounded: try-ons past the cap are let go and counted', () => {
    const judge = new PassiveJudge({ caps: { tryOnsPerAccount: 2 } });
    for (let i = 0; i < 5; i++) judge.observe(start(`ton_${i}`, `key-0000000${i}`, i));
    expect(judge.seen().notKept).toBeGreaterThan(0);
  });

  it('balances: a finished try-on costs one credit, a failed one none', () => {
    const ok = judged([balance(20, 0), start('ton_1', 'key-00000001', 1), poll('ton_1', 'success', 3), balance(19, 5)]);
    expect(ok.verdict('SVC-ONE-CREDIT-PER-FINISHED-TRYON')).toBe('pass');
    const twice = judged([
      balance(20, 0),
      start('ton_1', 'key-00000001', 1),
      poll('ton_1', 'success', 3),
      balance(18, 5),
    ]);
    expect(twice.verdict('SVC-ONE-CREDIT-PER-FINISHED-TRYON')).toBe('fail');
    const kept = judged([
      balance(20, 0),
      start('ton_1', 'key-00000001', 1),
      poll('ton_1', 'failed', 3),
      balance(19, 5),
    ]);
    expect(kept.verdict('SVC-FAILED-TRYON-REFUNDED')).toBe('fail');
  });

  it('balances: a try-on still pending at the second read leaves the interval unjudged', () => {
    const { verdict } = judged([balance(20, 0), start('ton_1', 'key-00000001', 1), balance(17, 5)]);
    expect(verdict('SVC-ONE-CREDIT-PER-FINISHED-TRYON')).toBe('not-observable');
  });
});
