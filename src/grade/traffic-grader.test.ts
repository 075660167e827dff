/**
 * The client grader fed by traffic: recorded traces of a careless client and of a careful one, as a
 * proxy hands them over (ended exchanges, the key as a digest, secrets redacted), judged by the same
 * client rules as `serve --grade-clients`.
 */
import { describe, expect, it } from 'vitest';
import type { TrafficExchange } from '../traffic/traffic-exchange.ts';
import { clientRules } from './client-rules.ts';
import type { ClientGrade } from './grade.ts';
import { TrafficGrader } from './traffic-grader.ts';
import { writeGrade } from './write-grade.ts';

const t0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const upstream = 'http://127.0.0.1:8787';

interface Step {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly json?: unknown;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly answerHeaders?: Record<string, string>;
  /** How long the exchange took, in seconds (default 0.05). */
  readonly took?: number;
  readonly dropped?: boolean;
  readonly account?: string;
}

/** One recorded exchange, as the proxy makes it, `at` seconds into the trace. */
function traffic(step: Step): TrafficExchange {
  const startedAt = t0 + step.at * 1000;
  const text = step.json === undefined ? '' : JSON.stringify(step.json);
  const hasBody = step.body !== undefined;
  return {
    exchange: {
      seq: 0,
      request: {
        method: step.method,
        url: `${upstream}${step.path}`,
        headers: {
          authorization: 'Bearer [redacted]',
          ...(hasBody && { 'content-type': 'application/json' }),
          ...step.headers,
        },
        ...(hasBody && { body: JSON.stringify(step.body) }),
      },
      response: {
        status: step.status,
        headers: { 'content-type': 'application/json', ...step.answerHeaders },
        text,
        json: step.json,
        bytes: Buffer.from(text),
        truncated: false,
        durationMs: (step.took ?? 0.05) * 1000,
      },
    },
    account: step.account ?? 'key:0123456789abcdef',
    startedAt,
    endedAt: startedAt + (step.took ?? 0.05) * 1000,
    ...(step.dropped === true && { dropped: true }),
  };
}

const body = (garment: string) => ({ personImageUrl: 'https://img.example/p.jpg', garmentImageUrl: garment });
const startFailed = { error: 'The try-on could not start.', code: 'START_FAILED' };
const pending = (id: string) => ({ id, status: 'pending' });
const key = (k: string) => ({ 'idempotency-key': k });

/** A careless client: a new key per retry, no backoff, a refusal repeated, Retry-After ignored, and so on. */
const careless: Step[] = [
  {
    at: 0,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g1'),
    headers: key('careless-01'),
    status: 502,
    json: startFailed,
  },
  {
    at: 0.1,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g1'),
    headers: key('careless-02'),
    status: 502,
    json: startFailed,
  },
  {
    at: 1,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g2'),
    headers: key('careless-03'),
    status: 422,
    json: { error: 'no person', code: 'PERSON_PHOTO_REJECTED' },
  },
  {
    at: 1.1,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g2'),
    headers: key('careless-03'),
    status: 422,
    json: { error: 'no person', code: 'PERSON_PHOTO_REJECTED' },
  },
  {
    at: 2,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g3'),
    headers: key('careless-04'),
    status: 429,
    json: { error: 'slow down', code: 'RATE_LIMITED' },
    answerHeaders: { 'retry-after': '30' },
  },
  {
    at: 2.1,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g3'),
    headers: key('careless-04'),
    status: 429,
    json: { error: 'slow down', code: 'RATE_LIMITED' },
    answerHeaders: { 'retry-after': '30' },
  },
  {
    at: 40,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g4'),
    headers: key('careless-05'),
    status: 202,
    json: pending('tr_slow'),
  },
  { at: 40.2, method: 'GET', path: '/api/v1/tryons/tr_slow', status: 200, json: pending('tr_slow') },
  { at: 40.3, method: 'GET', path: '/api/v1/tryons/tr_slow', status: 200, json: pending('tr_slow') },
  { at: 700, method: 'GET', path: '/api/v1/tryons/tr_slow', status: 200, json: pending('tr_slow') },
  {
    at: 701,
    method: 'POST',
    path: '/api/v1/tryons/sync',
    body: body('g5'),
    headers: key('careless-06'),
    status: 200,
    took: 0.1,
    dropped: true,
  },
  {
    at: 702,
    method: 'GET',
    path: '/api/v1/account',
    headers: { origin: 'https://shop.example' },
    status: 200,
    json: { credits: 3 },
  },
];

/** A careful client: same key on retries, backoff, Retry-After waited out, polls every 2.5 s, gives up in time. */
const careful: Step[] = [
  {
    at: 0,
    method: 'POST',
    path: '/api/v1/images',
    status: 201,
    json: { id: 'img_1', expiresAt: '2026-01-06T09:00:00Z' },
  },
  {
    at: 1,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g1'),
    headers: key('careful-01'),
    status: 502,
    json: startFailed,
  },
  {
    at: 2.1,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g1'),
    headers: key('careful-01'),
    status: 202,
    json: pending('tr_a'),
  },
  { at: 4.7, method: 'GET', path: '/api/v1/tryons/tr_a', status: 200, json: pending('tr_a') },
  { at: 7.3, method: 'GET', path: '/api/v1/tryons/tr_a', status: 200, json: { id: 'tr_a', status: 'success' } },
  {
    at: 8,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g2'),
    headers: key('careful-02'),
    status: 422,
    json: { error: 'no person', code: 'PERSON_PHOTO_REJECTED' },
  },
  {
    at: 9,
    method: 'POST',
    path: '/api/v1/tryons/sync',
    body: body('g3'),
    headers: key('careful-03'),
    status: 202,
    took: 60,
    json: pending('tr_b'),
  },
  { at: 69.5, method: 'GET', path: '/api/v1/tryons/tr_b', status: 200, json: { id: 'tr_b', status: 'success' } },
  {
    at: 70,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g4'),
    headers: key('careful-04'),
    status: 429,
    json: { error: 'slow down', code: 'RATE_LIMITED' },
    answerHeaders: { 'retry-after': '2' },
  },
  {
    at: 72.1,
    method: 'POST',
    path: '/api/v1/tryons',
    body: body('g4'),
    headers: key('careful-04'),
    status: 202,
    json: pending('tr_c'),
  },
  { at: 74.6, method: 'GET', path: '/api/v1/tryons/tr_c', status: 200, json: pending('tr_c') },
  { at: 77.1, method: 'GET', path: '/api/v1/tryons/tr_c', status: 200, json: pending('tr_c') },
  { at: 800, method: 'GET', path: '/api/v1/account', status: 200, json: { credits: 3 } },
];

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
      headers: key('cut-0001'),
      status: 502,
      json: startFailed,
    });
    grader.observe({ ...cut, partial: { request: true, response: false } });
    const grade = grader.grade();
    expect(grade.callers.map((c) => c.requests)).toEqual([1]);
    const text = writeGrade(grade, 'markdown');
    expect(text).not.toContain('_control');
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
