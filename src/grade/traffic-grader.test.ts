/**
 * The client grader fed by traffic: recorded traces of a careless client and of a careful one, as a
 * proxy hands them over (ended exchanges, the key as a digest, secrets redacted), judged by the same
 * client rules as `serve --grade-clients`.
 */
import { describe, expect, it } from 'vitest';
import {
  body,
  careful,
  careless,
  key,
  pending,
  startFailed,
  type Step,
  traffic,
} from './__fixtures__/client-traces.ts';
import { clientRules } from './client-rules.ts';
import type { ClientGrade } from './grade.ts';
import { TrafficGrader } from './traffic-grader.ts';
import { writeGrade } from './write-grade.ts';

function gradeOf(steps: readonly Step[], grader = new TrafficGrader()): ClientGrade {
  for (const step of steps) grader.observe(traffic(step));
  return grader.grade();
}

const verdicts = (g: ClientGrade, caller = 0): Record<string, string> =>
  Object.fromEntries((g.callers[caller]?.rules ?? []).map((r) => [r.id, r.verdict]));

describe('TrafficGrader', () => {
  it("flags each of the careless client's bad behaviours with its rule, the rest not exercised", () => {
    const grade = gradeOf(careless);
    expect(grade.callers.map((c) => [c.caller, c.requests])).toEqual([['key:0123456789abcdef', careless.length]]);
    expect(verdicts(grade)).toEqual({
      'ERR-CLIENT-RETRY-SAME-KEY': 'fail',
      'ERR-CLIENT-NO-UNCHANGED-RETRY': 'fail',
      'ERR-CLIENT-BACKOFF-1-2-4': 'fail',
      'ERR-CLIENT-HONOURS-RETRY-AFTER': 'fail',
      'GET-POLL-EVERY-2-3-SECONDS': 'fail',
      'GET-POLL-GIVE-UP-AFTER-MINUTES': 'fail',
      'SYNC-CLIENT-TIMEOUT-70-SECONDS': 'fail',
      'SYNC-CLIENT-HANDLES-200-AND-202': 'not-exercised',
      'AUTH-KEY-SERVER-SIDE-ONLY': 'fail',
    });
    const rule = (id: string) => grade.callers[0]?.rules.find((r) => r.id === id);
    const start = (at: string, k: string) =>
      expect.stringMatching(
        new RegExp(`^\\+${at}s POST /api/v1/tryons Idempotency-Key: ${k} body sha256:\\w{12} → 502 START_FAILED$`),
      );
    expect(rule('ERR-CLIENT-RETRY-SAME-KEY')?.failures[0]?.evidence).toEqual([
      start('0\\.000', 'careless-01'),
      start('0\\.100', 'careless-02'),
    ]);
    expect(rule('SYNC-CLIENT-TIMEOUT-70-SECONDS')?.failures[0]?.evidence[0]).toMatch(
      /dropped by the client after 0\.100 s/,
    );
    expect(rule('AUTH-KEY-SERVER-SIDE-ONLY')?.failures[0]?.evidence[0]).toMatch(/\[Origin: https:\/\/shop\.example\]/);
  });

  it('gives the careful client a clean grade, every rule exercised and passed', () => {
    const grade = gradeOf(careful);
    const failing = grade.callers[0]?.rules.filter((r) => r.verdict === 'fail') ?? [];
    expect(failing.map((r) => [r.id, r.failures])).toEqual([]);
    expect(verdicts(grade)).toEqual(Object.fromEntries(clientRules.map((r) => [r.id, 'pass'])));
  });

  it('judges each caller apart, by the digest of its key, and a request without a key as the sandbox names it', () => {
    const grader = new TrafficGrader();
    for (const step of careful) grader.observe(traffic({ ...step, account: 'key:aaaaaaaaaaaaaaaa' }));
    for (const step of careless) grader.observe(traffic({ ...step, account: 'key:bbbbbbbbbbbbbbbb' }));
    grader.observe(
      traffic({
        at: 801,
        method: 'OPTIONS',
        path: '/api/v1/tryons',
        status: 204,
        account: 'none',
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
      }),
    );
    const grade = grader.grade();
    expect(grade.callers.map((c) => [c.caller, c.verdict])).toEqual([
      ['key:aaaaaaaaaaaaaaaa', 'pass'],
      ['key:bbbbbbbbbbbbbbbb', 'fail'],
      ['no API key', 'fail'],
    ]);
    expect(grader.grade('key:aaaaaaaaaaaaaaaa').callers.map((c) => c.caller)).toEqual(['key:aaaaaaaaaaaaaaaa']);
  });

  it('reads the records in the order they started, whatever order the proxy saw them end in', () => {
    // A retry after a 502 observed before the failure it repeats (the failure's answer was slow to end).
    const steps: Step[] = [
      {
        at: 0,
        method: 'POST',
        path: '/api/v1/tryons',
        body: body('g1'),
        headers: key('order-01'),
        status: 502,
        json: startFailed,
        took: 5,
      },
      {
        at: 5.2,
        method: 'POST',
        path: '/api/v1/tryons',
        body: body('g1'),
        headers: key('order-02'),
        status: 202,
        json: pending('tr_o'),
      },
    ];
    const grader = new TrafficGrader();
    for (const step of [...steps].reverse()) grader.observe(traffic(step));
    const rules = grader.grade().callers[0]?.rules ?? [];
    expect(rules.find((r) => r.id === 'ERR-CLIENT-RETRY-SAME-KEY')?.verdict).toBe('fail');
    expect(rules.find((r) => r.id === 'ERR-CLIENT-BACKOFF-1-2-4')?.verdict).toBe('fail');
  });

  it('leaves out the sandbox test control, and a cut-off body gives no digest to compare', () => {
    const grader = new TrafficGrader();
    grader.observe(
      traffic({ at: 0, method: 'POST', path: '/_control/clock/advance', status: 200, body: { seconds: 1 } }),
    );
    const cut = traffic({
      at: 1,
      method: 'POST',
      path: '/api/v1/tryons',
      body: body('g1'),
      // A browser's sign makes the request a failure, so its evidence line is in the grade.
      headers: { ...key('cut-0001'), origin: 'https://shop.example' },
      status: 502,
      json: startFailed,
    });
    grader.observe({ ...cut, partial: { request: true, response: false } });
    const grade = grader.grade();
    expect(grade.callers.map((c) => c.requests)).toEqual([1]);
    const text = writeGrade(grade, 'markdown');
    expect(text).not.toContain('_control');
    expect(text).toContain('POST /api/v1/tryons Idempotency-Key: cut-0001 [Origin');
    expect(text).not.toContain('body sha256');
  });

  it("keeps a key shaped like this API's out of the grade even when the recording left it in a path", () => {
    const leaked = `vto_live_${'A1b2C3d4'.repeat(5)}abcd`;
    const grader = new TrafficGrader();
    grader.observe(
      traffic({
        at: 0,
        method: 'GET',
        path: `/api/v1/tryons/${leaked}`,
        status: 404,
        headers: { origin: 'https://x.example' },
      }),
    );
    for (const format of ['json', 'junit', 'markdown', 'html'] as const) {
      const text = writeGrade(grader.grade(), format);
      expect(text).not.toContain(leaked.slice(9));
      expect(text).toContain('[key redacted]');
    }
  });

  it('keeps keys the upstream refused (401) with the callers without an account, within their bound', () => {
    const grader = new TrafficGrader({ limits: { perAccount: 10, withoutAccount: 5, accounts: 2 } });
    for (let i = 0; i < 50; i++) {
      const account = `key:${i.toString(16).padStart(16, '0')}`;
      grader.observe(
        traffic({
          at: i,
          method: 'GET',
          path: '/api/v1/account',
          status: 401,
          account,
          json: { error: 'no', code: 'INVALID_API_KEY' },
        }),
      );
    }
    grader.observe(traffic({ at: 60, method: 'GET', path: '/api/v1/account', status: 200, json: { credits: 1 } }));
    const grade = grader.grade();
    expect(grade.recording).toMatchObject({ notKeptWithoutAccount: 45, notKeptBeyondAccounts: 0 });
    expect(grade.callers.filter((c) => c.caller === 'key:0123456789abcdef')).toHaveLength(1);
  });
});
