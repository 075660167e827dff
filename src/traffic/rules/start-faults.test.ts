import { describe, expect, it } from 'vitest';
import { fake, start } from '../fake-traffic.ts';
import { settings } from './control-fakes.ts';
import { judgeTrace } from './judge-trace.ts';

const good = { personImageUrl: 'https://images.example/p.jpg', garmentImageId: 'img_garment1', consent: true };

/** A POST /tryons with `body` (and `headers`), answered `status` with `json`. */
const create = (
  body: unknown,
  status: number,
  json: unknown,
  headers: Record<string, string> = { 'idempotency-key': 'key-00000001' },
) => fake({ method: 'POST', path: '/api/v1/tryons', status, body, headers, json, at: 0 });
const accepted = (body: unknown, headers?: Record<string, string>) =>
  create(body, 200, { id: 'ton_1', status: 'pending', pollUrl: '/api/v1/tryons/ton_1' }, headers);
const refused = (status: number, code: string, body: unknown, headers?: Record<string, string>) =>
  create(body, status, { error: 'Refused.', code }, headers);

describe('refused starts', () => {
  it('an http: image URL: 400 INVALID_IMAGE_URL passes; accepted fails CREATE-URL-HTTPS-ONLY', () => {
    const body = { ...good, personImageUrl: 'http://images.example/p.jpg' };
    expect(judgeTrace([refused(400, 'INVALID_IMAGE_URL', body)]).verdict('CREATE-URL-HTTPS-ONLY')).toBe('pass');
    expect(judgeTrace([accepted(body)]).verdict('CREATE-URL-HTTPS-ONLY')).toBe('fail');
  });

  it('a custom port and a private literal, accepted, fail their rules', () => {
    const port = { ...good, personImageUrl: 'https://images.example:8443/p.jpg' };
    expect(judgeTrace([accepted(port)]).verdict('CREATE-URL-DEFAULT-PORT-ONLY')).toBe('fail');
    const mapped = { ...good, personImageUrl: 'https://[::ffff:127.0.0.1]/p.jpg' };
    expect(judgeTrace([accepted(mapped)]).verdict('CREATE-URL-NO-PRIVATE-ADDRESS')).toBe('fail');
  });

  it('the fixture origin test control trusts is no fault', () => {
    const fixture = { ...good, personImageUrl: 'https://127.0.0.1:39425/f/p.jpg' };
    const trusted = settings('https://127.0.0.1:39425', '2026-11-27T08:00:00.000Z', 0);
    const t = judgeTrace([trusted, accepted(fixture)]);
    expect(t.verdict('CREATE-URL-DEFAULT-PORT-ONLY')).not.toBe('fail');
    expect(t.verdict('CREATE-URL-NO-PRIVATE-ADDRESS')).not.toBe('fail');
  });

  it('IMAGE_DOWNLOAD_FAILED for a URL the static rules refuse fails ERR-INVALID-IMAGE-URL', () => {
    const body = { ...good, personImageUrl: 'https://10.0.0.1/p.jpg' };
    expect(judgeTrace([refused(400, 'IMAGE_DOWNLOAD_FAILED', body)]).verdict('ERR-INVALID-IMAGE-URL')).toBe('fail');
    expect(judgeTrace([refused(400, 'INVALID_IMAGE_URL', body)]).verdict('ERR-INVALID-IMAGE-URL')).toBe('pass');
    // Another URL of the body may be the one that failed to download.
    const mixed = { ...body, garmentImageId: undefined, garmentImageUrl: 'https://images.example/g.jpg' };
    expect(judgeTrace([refused(400, 'IMAGE_DOWNLOAD_FAILED', mixed)]).verdict('ERR-INVALID-IMAGE-URL')).not.toBe(
      'fail',
    );
  });

  it('a 7-character Idempotency-Key accepted fails both key requirements; refused as owed passes', () => {
    const seven = { 'idempotency-key': 'abcdefg' };
    const t = judgeTrace([accepted(good, seven)]);
    expect(t.verdict('CREATE-IDEMPOTENCY-KEY-FORMAT')).toBe('fail');
    expect(t.verdict('ERR-MISSING-IDEMPOTENCY-KEY')).toBe('fail');
    const ok = judgeTrace([refused(400, 'MISSING_IDEMPOTENCY_KEY', good, seven)]);
    expect(ok.verdict('ERR-MISSING-IDEMPOTENCY-KEY')).toBe('pass');
  });

  it('consent "true" as a string accepted fails ERR-CONSENT-REQUIRED', () => {
    expect(judgeTrace([accepted({ ...good, consent: 'true' })]).verdict('ERR-CONSENT-REQUIRED')).toBe('fail');
    expect(
      judgeTrace([refused(403, 'CONSENT_REQUIRED', { ...good, consent: 'true' })]).verdict('ERR-CONSENT-REQUIRED'),
    ).toBe('pass');
  });

  it('a title of 121 characters accepted fails; refused with any 4xx passes; 120 astral code points are no fault', () => {
    const long = { ...good, title: 'x'.repeat(121) };
    expect(judgeTrace([accepted(long)]).verdict('ERR-TITLE-TOO-LONG-IMPL-DEFINED')).toBe('fail');
    expect(judgeTrace([refused(400, 'INVALID_REQUEST', long)]).verdict('ERR-TITLE-TOO-LONG-IMPL-DEFINED')).toBe('pass');
    const astral = { ...good, title: '𝒳'.repeat(120) };
    expect(judgeTrace([accepted(astral)]).verdict('ERR-TITLE-TOO-LONG-IMPL-DEFINED')).toBe('not-observable');
  });

  it('both sources of an image, or neither, accepted fails CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE', () => {
    const both = { ...good, personImageId: 'img_person01' };
    expect(judgeTrace([accepted(both)]).verdict('CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE')).toBe('fail');
    const neither = { garmentImageId: 'img_garment1', consent: true };
    expect(judgeTrace([accepted(neither)]).verdict('CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE')).toBe('fail');
    expect(judgeTrace([accepted(good)]).verdict('CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE')).toBe('not-observable');
  });

  it('a text/plain create accepted fails CREATE-CONTENT-TYPE-JSON; a 415 passes', () => {
    const plain = { 'idempotency-key': 'key-00000001', 'content-type': 'text/plain' };
    expect(judgeTrace([accepted(good, plain)]).verdict('CREATE-CONTENT-TYPE-JSON')).toBe('fail');
    expect(judgeTrace([refused(415, 'UNSUPPORTED_MEDIA_TYPE', good, plain)]).verdict('CREATE-CONTENT-TYPE-JSON')).toBe(
      'pass',
    );
  });

  it('a body that is not a JSON object answered 500 fails ERR-MALFORMED-JSON-IMPL-DEFINED; a 400 passes', () => {
    const malformed = (status: number, code: string) =>
      fake({
        method: 'POST',
        path: '/api/v1/tryons',
        status,
        headers: { 'idempotency-key': 'key-00000001', 'content-type': 'application/json' },
        json: { error: 'Bad body.', code },
        at: 0,
        body: [1, 2],
      });
    expect(judgeTrace([malformed(500, 'INTERNAL_ERROR')]).verdict('ERR-MALFORMED-JSON-IMPL-DEFINED')).toBe('fail');
    expect(judgeTrace([malformed(400, 'INVALID_REQUEST')]).verdict('ERR-MALFORMED-JSON-IMPL-DEFINED')).toBe('pass');
  });

  it('a replay is left alone: the server answered the key, not the body', () => {
    const first = start('ton_1', 'key-00000001', 0);
    const replay = start('ton_1', 'key-00000001', 5, undefined, { ...good, title: 'x'.repeat(130) });
    expect(judgeTrace([first, replay]).verdict('ERR-TITLE-TOO-LONG-IMPL-DEFINED')).toBe('not-observable');
  });

  it('a refusal about the key, credits or a limit judges nothing of the body', () => {
    const long = { ...good, title: 'x'.repeat(121) };
    expect(judgeTrace([refused(429, 'RATE_LIMITED', long)]).verdict('ERR-TITLE-TOO-LONG-IMPL-DEFINED')).toBe(
      'not-observable',
    );
  });
});
