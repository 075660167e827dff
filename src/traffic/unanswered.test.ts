/**
 * Exchanges a client dropped before any answer: no rule judges them, but the rules across exchanges
 * allow for what the server may have done with them unseen; a recording keeps them, and the client
 * grader records them as dropped with no status.
 */
import { describe, expect, it } from 'vitest';
import { TrafficGrader } from '../grade/traffic-grader.ts';
import { balance, fake, poll, start } from './fake-traffic.ts';
import { PassiveJudge } from './passive-judge.ts';
import { harHead, harTail, readRecording, toHarEntry, toNdjsonLine } from './recording.ts';
import { judgeTrace } from './rules/judge-trace.ts';
import type { TrafficExchange } from './traffic-exchange.ts';

/** The request of `te`, dropped by its client before any answer came. */
function unanswered(te: TrafficExchange): TrafficExchange {
  const { seq, request } = te.exchange;
  return { ...te, exchange: { seq, request }, dropped: true };
}

describe('an exchange dropped before any answer', () => {
  it('is counted as seen and judged by no per-exchange check', () => {
    const dropped = unanswered(fake({ path: '/api/v1/tryons/ton_1', status: 200, at: 0 }));
    const judge = new PassiveJudge();
    judge.observe(dropped);
    expect(judge.seen().exchanges).toBe(1);
    const alone = new PassiveJudge().report({ final: true }).requirements.map((r) => [r.id, r.verdict]);
    expect(judge.report({ final: true }).requirements.map((r) => [r.id, r.verdict])).toEqual(alone);
  });

  it('leaves the balance it may have charged unjudged', () => {
    const trace = (extra: TrafficExchange[]) => [
      balance(20, 0),
      ...extra,
      start('ton_1', 'key-00000001', 2),
      poll('ton_1', 'success', 3),
      balance(18, 4),
    ];
    const price = 'SVC-ONE-CREDIT-PER-FINISHED-TRYON';
    expect(judgeTrace(trace([])).verdict(price)).toBe('fail');
    const droppedStart = unanswered(start('ton_0', 'key-00000002', 1));
    expect(judgeTrace(trace([droppedStart])).verdict(price)).not.toBe('fail');
  });

  it('makes a key it carried bound to either start: another try-on later is recorded, not failed', () => {
    const replay = 'CREATE-IDEMPOTENCY-REPLAY';
    const trace = (first: TrafficExchange[]) => [
      ...first,
      start('ton_2', 'key-00000001', 2),
      start('ton_1', 'key-00000001', 4),
    ];
    expect(judgeTrace(trace([])).verdict(replay)).toBe('fail');
    const judged = judgeTrace(trace([unanswered(start('ton_1', 'key-00000001', 0))]));
    expect(judged.verdict(replay)).not.toBe('fail');
    expect(judged.observations('CREATE-IDEMPOTENCY-IN-FLIGHT-IMPL-DEFINED')).toEqual([
      expect.stringMatching(/^A key reused after a start with it went unanswered/),
    ]);
    // A retry that names the same try-on is still judged a replay.
    expect(
      judgeTrace([unanswered(start('ton_1', 'k-3', 0)), start('ton_1', 'k-3', 2), start('ton_1', 'k-3', 4)]).verdict(
        replay,
      ),
    ).toBe('pass');
  });

  it('is written and read back by a recording, NDJSON and HAR', () => {
    const dropped = unanswered(start('ton_1', 'key-00000001', 0));
    expect(readRecording(`${toNdjsonLine(dropped)}\n`)).toEqual({ exchanges: [dropped], problems: [] });
    const har = harHead('0') + toHarEntry(dropped) + harTail;
    const read = readRecording(har);
    expect(read.problems).toEqual([]);
    expect(read.exchanges[0]?.exchange.response).toBeUndefined();
    expect(read.exchanges[0]?.dropped).toBe(true);
    expect(read.exchanges[0]?.exchange.request).toEqual(dropped.exchange.request);
  });

  it('is graded as a call the client dropped, with no status, as the sandbox records one', () => {
    const sync = fake({
      method: 'POST',
      path: '/api/v1/tryons/sync',
      status: 202,
      body: { consent: true },
      headers: { 'idempotency-key': 'key-00000001' },
      at: 0,
    });
    const grader = new TrafficGrader();
    grader.observe({ ...unanswered(sync), endedAt: sync.startedAt + 100 });
    const rule = grader.grade().callers[0]?.rules.find((r) => r.id === 'SYNC-CLIENT-TIMEOUT-70-SECONDS');
    expect(rule?.verdict).toBe('fail');
    expect(rule?.failures[0]?.evidence).toEqual([expect.stringMatching(/→ dropped by the client after 0\.100 s$/)]);
  });
});
