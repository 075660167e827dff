import { describe, expect, it } from 'vitest';
import { bob, fake, start } from '../fake-traffic.ts';
import { judgeTrace } from './judge-trace.ts';

const replay = 'CREATE-IDEMPOTENCY-REPLAY';

describe('idempotent replays', () => {
  it('a key reused after the answer names the same try-on: passes', () => {
    expect(judgeTrace([start('ton_1', 'key-00000001', 0), start('ton_1', 'key-00000001', 5)]).verdict(replay)).toBe(
      'pass',
    );
  });

  it('a key reused that names another try-on: fails, with both starts as evidence', () => {
    const t = judgeTrace([start('ton_1', 'key-00000001', 0), start('ton_2', 'key-00000001', 5)]);
    expect(t.verdict(replay)).toBe('fail');
    expect(t.failures(replay)[0]?.evidence).toHaveLength(2);
  });

  it('another account with the same key is another key', () => {
    expect(
      judgeTrace([start('ton_1', 'key-00000001', 0), start('ton_2', 'key-00000001', 5, bob)]).verdict(replay),
    ).toBe('not-observable');
  });

  it('a key reused with another body is recorded; the earlier try-on is a fine answer, a new one is not', () => {
    const other = { personImageId: 'img_person02', garmentImageId: 'img_garment1', consent: true };
    const t = judgeTrace([start('ton_1', 'key-00000001', 0), start('ton_2', 'key-00000001', 5, undefined, other)]);
    expect(t.verdict(replay)).toBe('not-observable');
    expect(t.observations('CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED')[0]).toMatch(/another body/);
    // "one key can never be charged twice": a new try-on for the key fails.
    expect(t.verdict('CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE')).toBe('fail');
    const same = judgeTrace([start('ton_1', 'key-00000001', 0), start('ton_1', 'key-00000001', 5, undefined, other)]);
    expect(same.verdict('CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE')).not.toBe('fail');
  });

  it('a reuse sent while the first was in flight is recorded, not judged', () => {
    const first = { ...start('ton_1', 'key-00000001', 0), endedAt: start('x', 'k', 10).startedAt };
    const t = judgeTrace([start('ton_2', 'key-00000001', 1), first]);
    expect(t.verdict(replay)).not.toBe('fail');
  });

  it('a reuse after a test-control clock move is recorded, not judged', () => {
    const clock = fake({
      method: 'POST',
      path: '/_control/clock/advance',
      status: 200,
      json: { now: 'x' },
      at: 2,
      body: { seconds: 86401 },
    });
    const t = judgeTrace([start('ton_1', 'key-00000001', 0), clock, start('ton_2', 'key-00000001', 5)]);
    expect(t.verdict(replay)).toBe('not-observable');
    expect(t.observations('CREATE-IDEMPOTENCY-RETENTION-IMPL-DEFINED')).toHaveLength(1);
  });
});

describe('idempotent replays across the two create endpoints', () => {
  const sync = (id: string, at: number) =>
    fake({
      method: 'POST',
      path: '/api/v1/tryons/sync',
      status: 202,
      body: { personImageId: 'img_person01', garmentImageId: 'img_garment1', consent: true },
      headers: { 'idempotency-key': 'key-00000001' },
      json: { id, status: 'pending', pollUrl: `/api/v1/tryons/${id}` },
      at,
    });

  it('a POST /tryons key reused on /tryons/sync starting another try-on fails SYNC-SAME-CONTRACT-AS-CREATE', () => {
    const t = judgeTrace([start('ton_1', 'key-00000001', 0), sync('ton_2', 5)]);
    expect(t.verdict('SYNC-SAME-CONTRACT-AS-CREATE')).toBe('fail');
    expect(t.verdict(replay)).toBe('not-observable');
    expect(
      judgeTrace([start('ton_1', 'key-00000001', 0), sync('ton_1', 5)]).verdict('SYNC-SAME-CONTRACT-AS-CREATE'),
    ).toBe('pass');
  });
});
