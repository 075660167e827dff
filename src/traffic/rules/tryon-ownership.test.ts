import { describe, expect, it } from 'vitest';
import { fake, start } from '../fake-traffic.ts';
import { clockMoved, digestOf, made, rotated } from './control-fakes.ts';
import { judgeTrace } from './judge-trace.ts';

const a = digestOf('vto_live_a');
const b = digestOf('vto_live_b');
const read = (account: string, status: number, at: number) =>
  fake({
    path: '/api/v1/tryons/ton_1',
    status,
    json: status === 200 ? { id: 'ton_1', status: 'pending', resultUrl: null } : { error: 'No.', code: 'NOT_FOUND' },
    at,
    account,
  });
const accounts = [made('acct_a', 'vto_live_a', 0), made('acct_b', 'vto_live_b', 0)];

describe('try-on ownership', () => {
  it('another account reading a try-on: 404 passes; 200 fails AUTH-FOREIGN-TRYON-NOT-FOUND', () => {
    const created = start('ton_1', 'key-00000001', 1, a);
    expect(judgeTrace([...accounts, created, read(b, 404, 2)]).verdict('AUTH-FOREIGN-TRYON-NOT-FOUND')).toBe('pass');
    expect(judgeTrace([...accounts, created, read(b, 200, 2)]).verdict('AUTH-FOREIGN-TRYON-NOT-FOUND')).toBe('fail');
  });

  it('keys no control answer tied are not told apart (one account may have a new key)', () => {
    const t = judgeTrace([start('ton_1', 'key-00000001', 1, a), read(b, 200, 2)]);
    expect(t.verdict('AUTH-FOREIGN-TRYON-NOT-FOUND')).toBe('not-observable');
  });

  it("the creating account's new key gets 404: fails RES-TRYON-ID-RETURNED-ON-CREATE", () => {
    const c = digestOf('vto_live_c');
    const trace = [made('acct_a', 'vto_live_a', 0), start('ton_1', 'key-00000001', 1, a)];
    const rotation = rotated('acct_a', 'vto_live_c', 2);
    expect(judgeTrace([...trace, rotation, read(c, 404, 3)]).verdict('RES-TRYON-ID-RETURNED-ON-CREATE')).toBe('fail');
    expect(judgeTrace([...trace, rotation, read(c, 200, 3)]).verdict('RES-TRYON-ID-RETURNED-ON-CREATE')).toBe('pass');
    // After a moved clock the try-on may be gone: not judged.
    const moved = clockMoved('2026-12-30T00:00:00.000Z', 2.5);
    expect(
      judgeTrace([...trace, rotation, moved, read(c, 404, 3)]).verdict('RES-TRYON-ID-RETURNED-ON-CREATE'),
    ).not.toBe('fail');
  });
});
