import { describe, expect, it } from 'vitest';
import { fake, start } from '../fake-traffic.ts';
import { judgeTrace } from './judge-trace.ts';

describe('per-exchange checks on traffic', () => {
  it('an error in the envelope passes ERR-ENVELOPE-SHAPE; one without fails it', () => {
    const good = fake({
      path: '/api/v1/tryons/x',
      status: 404,
      json: { error: 'No such try-on.', code: 'NOT_FOUND' },
      at: 0,
    });
    const bad = fake({ path: '/api/v1/tryons/x', status: 404, json: { message: 'no' }, at: 0 });
    expect(judgeTrace([good]).verdict('ERR-ENVELOPE-SHAPE')).toBe('pass');
    expect(judgeTrace([bad]).verdict('ERR-ENVELOPE-SHAPE')).toBe('fail');
  });

  it('a 429 with Retry-After passes LIMIT-429-RETRY-AFTER; one without fails it', () => {
    const limited = (headers: Record<string, string>) =>
      fake({
        method: 'POST',
        path: '/api/v1/tryons',
        status: 429,
        json: { error: 'Slow down.', code: 'RATE_LIMITED' },
        responseHeaders: headers,
        at: 0,
      });
    expect(judgeTrace([limited({ 'retry-after': '7' })]).verdict('LIMIT-429-RETRY-AFTER')).toBe('pass');
    expect(judgeTrace([limited({})]).verdict('LIMIT-429-RETRY-AFTER')).toBe('fail');
  });

  it('a pollUrl other than /api/v1/tryons/<id> fails RES-POLL-URL-VALUE', () => {
    const wrong = fake({
      method: 'POST',
      path: '/api/v1/tryons',
      status: 200,
      json: { id: 't1', status: 'pending', pollUrl: '/tryons/t1' },
      at: 0,
    });
    expect(judgeTrace([wrong]).verdict('RES-POLL-URL-VALUE')).toBe('fail');
    expect(judgeTrace([start('t1', 'key-00000001', 0)]).verdict('RES-POLL-URL-VALUE')).toBe('pass');
  });

  it('a resultUrl outside /i/ fails RES-RESULT-URL-HOST-AND-PATH', () => {
    const wrong = fake({
      path: '/api/v1/tryons/t1',
      status: 200,
      json: { id: 't1', status: 'success', resultUrl: 'http://127.0.0.1:8787/r/t1' },
      at: 0,
    });
    expect(judgeTrace([wrong]).verdict('RES-RESULT-URL-HOST-AND-PATH')).toBe('fail');
  });

  it('another base path is read as the client uses it', () => {
    const bad = fake({ path: '/v9/tryons/x', status: 404, json: { message: 'no' }, at: 0 });
    expect(judgeTrace([bad], { basePath: '/v9' }).verdict('ERR-ENVELOPE-SHAPE')).toBe('fail');
    expect(judgeTrace([bad]).verdict('ERR-ENVELOPE-SHAPE')).not.toBe('fail');
  });
});
