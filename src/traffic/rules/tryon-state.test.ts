import { describe, expect, it } from 'vitest';
import { fake, poll, start } from '../fake-traffic.ts';
import { judgeTrace } from './judge-trace.ts';

const terminal = 'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED';

describe('try-on states', () => {
  it('pending → success, read again as success: passes', () => {
    const t = judgeTrace([
      start('ton_1', 'key-00000001', 0),
      poll('ton_1', 'pending', 1),
      poll('ton_1', 'success', 2),
      poll('ton_1', 'success', 3),
    ]);
    expect(t.verdict(terminal)).toBe('pass');
    expect(t.verdict('STATE-PENDING-TO-SUCCESS')).toBe('pass');
  });

  it('success → pending on a later read: fails, with both reads as evidence', () => {
    const t = judgeTrace([start('ton_1', 'key-00000001', 0), poll('ton_1', 'success', 2), poll('ton_1', 'pending', 3)]);
    expect(t.verdict(terminal)).toBe('fail');
    expect(t.failures(terminal)[0]?.evidence).toHaveLength(2);
  });

  it('failed → success fails too', () => {
    const t = judgeTrace([poll('ton_1', 'failed', 2), poll('ton_1', 'success', 3)]);
    expect(t.verdict(terminal)).toBe('fail');
  });

  it('overlapping reads are not ordered: a pending answer begun before the success ended is no step back', () => {
    const success = poll('ton_1', 'success', 2);
    const pending = { ...poll('ton_1', 'pending', 1.98), endedAt: success.endedAt + 10 };
    const t = judgeTrace([success, pending]);
    expect(t.verdict(terminal)).toBe('not-observable');
  });

  it('a read answering another try-on fails RES-TRYON-ID-RETURNED-ON-CREATE', () => {
    const other = fake({
      path: '/api/v1/tryons/ton_1',
      status: 200,
      json: { id: 'ton_2', status: 'pending', resultUrl: null },
      at: 1,
    });
    expect(judgeTrace([other]).verdict('RES-TRYON-ID-RETURNED-ON-CREATE')).toBe('fail');
    expect(judgeTrace([poll('ton_1', 'pending', 1)]).verdict('RES-TRYON-ID-RETURNED-ON-CREATE')).toBe('pass');
  });

  it('a success without a resultUrl fails STATE-PENDING-TO-SUCCESS', () => {
    const bare = fake({ path: '/api/v1/tryons/ton_1', status: 200, json: { id: 'ton_1', status: 'success' }, at: 1 });
    expect(judgeTrace([bare]).verdict('STATE-PENDING-TO-SUCCESS')).toBe('fail');
  });

  it('a failed try-on read later gets 200: passes; a 404: fails STATE-FAILED-READ-IS-200', () => {
    expect(
      judgeTrace([poll('ton_1', 'failed', 1), poll('ton_1', 'failed', 2)]).verdict('STATE-FAILED-READ-IS-200'),
    ).toBe('pass');
    const gone = fake({
      path: '/api/v1/tryons/ton_1',
      status: 404,
      json: { error: 'No such try-on.', code: 'NOT_FOUND' },
      at: 2,
    });
    expect(judgeTrace([poll('ton_1', 'failed', 1), gone]).verdict('STATE-FAILED-READ-IS-200')).toBe('fail');
  });
});

describe('try-on states: starts are no readings', () => {
  it('a replayed start repeating its original pending body after a success is no step back', () => {
    const t = judgeTrace([
      start('ton_1', 'key-00000001', 0),
      poll('ton_1', 'success', 2),
      start('ton_1', 'key-00000001', 4),
    ]);
    expect(t.verdict(terminal)).not.toBe('fail');
  });
});
