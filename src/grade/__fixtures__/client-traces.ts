/**
 * Recorded traces of two clients, as a proxy hands exchanges to the grader (ended, the key as a digest,
 * secrets redacted): a careless client that breaks eight client rules, and a careful one that keeps all nine.
 */
import type { TrafficExchange } from '../../traffic/traffic-exchange.ts';

const t0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const upstream = 'http://127.0.0.1:8787';

export interface Step {
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
export function traffic(step: Step): TrafficExchange {
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

export const body = (garment: string) => ({ personImageUrl: 'https://img.example/p.jpg', garmentImageUrl: garment });
export const startFailed = { error: 'The try-on could not start.', code: 'START_FAILED' };
export const pending = (id: string) => ({ id, status: 'pending' });
export const key = (k: string) => ({ 'idempotency-key': k });

/** A careless client: a new key per retry, no backoff, a refusal repeated, Retry-After ignored, and so on. */
export const careless: Step[] = [
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
export const careful: Step[] = [
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
