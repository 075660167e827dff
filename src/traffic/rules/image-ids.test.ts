import { describe, expect, it } from 'vitest';
import { fake } from '../fake-traffic.ts';
import { clockMoved, digestOf, made, rotated } from './control-fakes.ts';
import { judgeTrace } from './judge-trace.ts';

const a = digestOf('vto_live_a');
const b = digestOf('vto_live_b');
const upload = (id: string, expiresAt: string, at: number, account: string) =>
  fake({ method: 'POST', path: '/api/v1/images', status: 200, json: { id, expiresAt }, at, account });
const create = (account: string, at: number, status: number, code?: string) =>
  fake({
    method: 'POST',
    path: '/api/v1/tryons',
    status,
    body: { personImageId: 'img_p1', garmentImageUrl: 'https://images.example/g.jpg', consent: true },
    headers: { 'idempotency-key': `key-0000000${at}` },
    json:
      code === undefined
        ? { id: `ton_${at}`, status: 'pending', pollUrl: `/api/v1/tryons/ton_${at}` }
        : { error: 'No.', code },
    at,
    account,
  });
const accounts = [made('acct_a', 'vto_live_a', 0), made('acct_b', 'vto_live_b', 0)];
const uploaded = upload('img_p1', '2026-11-28T08:00:00.000Z', 1, a);

describe('image ids', () => {
  it("another account's id: 400 INVALID_IMAGE_ID passes; accepted fails AUTH-FOREIGN-IMAGE-ID-INVALID", () => {
    const refused = create(b, 2, 400, 'INVALID_IMAGE_ID');
    expect(judgeTrace([...accounts, uploaded, refused]).verdict('AUTH-FOREIGN-IMAGE-ID-INVALID')).toBe('pass');
    expect(judgeTrace([...accounts, uploaded, create(b, 2, 200)]).verdict('AUTH-FOREIGN-IMAGE-ID-INVALID')).toBe(
      'fail',
    );
  });

  it("the account's own fresh id under its new key refused fails RES-IMAGE-ID-REUSABLE-WITHIN-24H", () => {
    const c = digestOf('vto_live_c');
    const trace = [...accounts, uploaded, rotated('acct_a', 'vto_live_c', 1.5)];
    const refused = create(c, 2, 400, 'INVALID_IMAGE_ID');
    expect(judgeTrace([...trace, refused]).verdict('RES-IMAGE-ID-REUSABLE-WITHIN-24H')).toBe('fail');
    expect(judgeTrace([...trace, create(c, 2, 200)]).verdict('RES-IMAGE-ID-REUSABLE-WITHIN-24H')).toBe('pass');
  });

  it('an id past its expiresAt on the moved clock accepted fails RES-IMAGE-ID-INVALID-AFTER-EXPIRY', () => {
    const later = clockMoved('2026-11-29T00:00:00.000Z', 1.5);
    const t = judgeTrace([...accounts, uploaded, later, create(a, 2, 200)]);
    expect(t.verdict('RES-IMAGE-ID-INVALID-AFTER-EXPIRY')).toBe('fail');
    const ok = judgeTrace([...accounts, uploaded, later, create(a, 2, 400, 'INVALID_IMAGE_ID')]);
    expect(ok.verdict('RES-IMAGE-ID-INVALID-AFTER-EXPIRY')).toBe('pass');
    expect(ok.verdict('RES-IMAGE-ID-REUSABLE-WITHIN-24H')).toBe('not-observable');
  });

  it('a clock moved short of expiresAt leaves an own id unjudged either way', () => {
    const moved = clockMoved('2026-11-27T20:00:00.000Z', 1.5);
    const t = judgeTrace([...accounts, uploaded, moved, create(a, 2, 400, 'INVALID_IMAGE_ID')]);
    expect(t.verdict('RES-IMAGE-ID-REUSABLE-WITHIN-24H')).toBe('not-observable');
    expect(t.verdict('RES-IMAGE-ID-INVALID-AFTER-EXPIRY')).toBe('not-observable');
  });
});
