/**
 * The per-exchange checks, row by row: what a conforming server that chose differently from ours
 * answers must give no error finding (at most a recorded warning), and what breaks a sentence of
 * the spec must give an error finding on the requirement of that sentence.
 */
import { describe, expect, it } from 'vitest';
import type { Answered } from '../client/exchange.ts';
import {
  allChecks,
  bodyMatchesSpec,
  errorCodeIsSpecified,
  errorEnvelope,
  jsonContentType,
  retryAfterOn429,
  runChecks,
  statusIsSpecified,
  type Check,
} from './checks.ts';

const host = 'https://api.example.test';

interface Given {
  readonly method?: string;
  readonly path: string;
  readonly status: number;
  readonly json?: unknown;
  readonly text?: string;
  readonly headers?: Record<string, string>;
  /** The request's body as sent (JSON text), and an uploaded file's size. */
  readonly body?: string;
  readonly fileBytes?: number;
}

function exchange(g: Given): Answered {
  const text = g.text ?? (g.json === undefined ? '' : JSON.stringify(g.json));
  return {
    seq: 1,
    request: {
      method: g.method ?? 'GET',
      url: g.path.startsWith('http') ? g.path : `${host}${g.path}`,
      headers: {},
      ...(g.body !== undefined && { body: g.body }),
      ...(g.fileBytes !== undefined && {
        multipart: { field: 'file', filename: 'p.jpg', contentType: 'image/jpeg', bytes: g.fileBytes },
      }),
    },
    response: {
      status: g.status,
      headers: { ...(g.json !== undefined && { 'content-type': 'application/json' }), ...g.headers },
      text,
      json: g.json,
      bytes: Buffer.from(text),
      truncated: false,
      durationMs: 1,
    },
  };
}

/** What the checks say: `error REQ-ID` / `warning REQ-ID`, sorted. */
const verdicts = (g: Given, checks: readonly Check[] = allChecks): string[] =>
  runChecks(exchange(g), checks)
    .map((f) => `${f.severity} ${f.requirement}`)
    .sort();

const err = (code: string, error = 'Something went wrong.') => ({ error, code });
const id = 'ton_7Hd2kQ9xLm3Pv8Rb';
const started = { id, status: 'pending', pollUrl: `/api/v1/tryons/${id}` };
const post = (path: string) => ({ method: 'POST', path: `/api/v1${path}` });
const get = (path: string) => ({ method: 'GET', path: `/api/v1${path}` });

describe('checks: a conforming server that chose differently gets no error finding', () => {
  it.each<[string, Given, string[]]>([
    [
      'a create answer with fields the spec does not list',
      { ...post('/tryons'), status: 200, json: { ...started, createdAt: '2026-11-23T10:00:00Z', credits: 19 } },
      [],
    ],
    [
      'a create answer whose id needs percent-encoding in pollUrl',
      { ...post('/tryons'), status: 200, json: { id: 'a b', status: 'pending', pollUrl: '/api/v1/tryons/a%20b' } },
      [],
    ],
    [
      'both sources: 400 INVALID_REQUEST (our choice)',
      { ...post('/tryons'), status: 400, json: err('INVALID_REQUEST') },
      ['warning CREATE-ERROR-LIST'],
    ],
    [
      'both sources: 400 VALIDATION_FAILED (another choice)',
      { ...post('/tryons'), status: 400, json: err('VALIDATION_FAILED') },
      ['warning CREATE-ERROR-LIST'],
    ],
    [
      'a wrong Content-Type: 415 UNSUPPORTED_MEDIA_TYPE (our choice)',
      { ...post('/tryons'), status: 415, json: err('UNSUPPORTED_MEDIA_TYPE') },
      ['warning CREATE-ERROR-LIST'],
    ],
    [
      'a wrong Content-Type: 400 BAD_CONTENT_TYPE',
      { ...post('/tryons/sync'), status: 400, json: err('BAD_CONTENT_TYPE') },
      ['warning SYNC-SAME-CONTRACT-AS-CREATE'],
    ],
    [
      'a key reused with a different body: 409 IDEMPOTENCY_CONFLICT',
      { ...post('/tryons'), status: 409, json: err('IDEMPOTENCY_CONFLICT') },
      ['warning CREATE-ERROR-LIST'],
    ],
    [
      'a key reused with a different body: 422 IDEMPOTENCY_KEY_REUSED (our choice)',
      { ...post('/tryons'), status: 422, json: err('IDEMPOTENCY_KEY_REUSED') },
      ['warning CREATE-ERROR-LIST'],
    ],
    [
      'an upload without a file part: 400 MISSING_FILE',
      { ...post('/images'), status: 400, json: err('MISSING_FILE') },
      ['warning UPLOAD-ERROR-LIST'],
    ],
    ['a spec code on its listed status', { ...post('/tryons'), status: 400, json: err('INVALID_IMAGE_URL') }, []],
    [
      '429 RATE_LIMITED with a loose Retry-After',
      { ...post('/tryons'), status: 429, json: err('RATE_LIMITED'), headers: { 'retry-after': '60' } },
      [],
    ],
    ['a 503 UNAVAILABLE without Retry-After', { ...get('/tryons/x'), status: 503, json: err('UNAVAILABLE') }, []],
    [
      'a JSON body over a front-end cap: 413 BODY_TOO_LARGE (no image is in the request)',
      {
        ...post('/tryons'),
        body: `{"consent":true,"x":"${'x'.repeat(70_000)}"}`,
        status: 413,
        json: err('BODY_TOO_LARGE'),
      },
      ['warning CREATE-ERROR-LIST'],
    ],
    [
      'an upload of 4,000,000 bytes refused 413 REQUEST_TOO_LARGE by a cap on the whole form',
      { ...post('/images'), fileBytes: 4_000_000, status: 413, json: err('REQUEST_TOO_LARGE') },
      ['warning UPLOAD-ERROR-LIST'],
    ],
    [
      '402 with a code of its own (the exchange does not show the balance)',
      { ...post('/tryons'), body: '{"consent":true}', status: 402, json: err('ACCOUNT_SUSPENDED') },
      ['warning CREATE-ERROR-LIST'],
    ],
    [
      '403 with a code of its own for consent: true (a case the spec leaves open)',
      { ...post('/tryons'), body: '{"consent":true}', status: 403, json: err('ACCOUNT_BLOCKED') },
      ['warning CREATE-ERROR-LIST'],
    ],
    [
      '403 with a code of its own for a body that is not JSON',
      { ...post('/tryons'), body: '<consent/>', status: 403, json: err('WAF_BLOCKED') },
      ['warning CREATE-ERROR-LIST'],
    ],
    [
      'an error JSON under text/plain',
      { ...post('/tryons'), status: 403, json: err('CONSENT_REQUIRED'), headers: { 'content-type': 'text/plain' } },
      ['warning ERR-ENVELOPE-SHAPE'],
    ],
    [
      'GET /tryons/sync read as a try-on named "sync": 404 NOT_FOUND',
      { ...get('/tryons/sync'), status: 404, json: err('NOT_FOUND') },
      [],
    ],
    [
      'GET /tryons/sync read as the sync path: 405 METHOD_NOT_ALLOWED',
      { ...get('/tryons/sync'), status: 405, json: err('METHOD_NOT_ALLOWED') },
      [],
    ],
    [
      'an unknown path answered 401 first (order of checks is open)',
      { ...get('/nothing/here'), status: 401, json: err('INVALID_API_KEY') },
      [],
    ],
    [
      'an unknown path answered 429 first',
      { ...get('/nothing'), status: 429, json: err('RATE_LIMITED'), headers: { 'retry-after': '3' } },
      [],
    ],
    [
      'a wrong method answered 405',
      { method: 'DELETE', path: '/api/v1/images', status: 405, json: err('METHOD_NOT_ALLOWED') },
      [],
    ],
    ['HEAD on a known path answered like GET', { method: 'HEAD', path: '/api/v1/account', status: 200 }, []],
    ['OPTIONS answered 204 by a CORS layer', { method: 'OPTIONS', path: '/api/v1/tryons', status: 204 }, []],
    ['GET /account as {"balance": 20}', { ...get('/account'), status: 200, json: { balance: 20 } }, []],
    [
      'GET /account as {"data": {"credits": "5"}}',
      { ...get('/account'), status: 200, json: { data: { credits: '5' } } },
      [],
    ],
    [
      'GET /account answered 404 NOT_FOUND (its errors are not shown)',
      { ...get('/account'), status: 404, json: err('NOT_FOUND') },
      [],
    ],
    ['GET /account answered 204', { ...get('/account'), status: 204 }, []],
    [
      'a pending read with fields the spec does not list',
      { ...get(`/tryons/${id}`), status: 200, json: { id, status: 'pending', resultUrl: null, progress: 0.4 } },
      [],
    ],
    [
      'a success read with a result path of several segments',
      {
        ...get(`/tryons/${id}`),
        status: 200,
        json: { id, status: 'success', resultUrl: `${host}/i/2026/11/r_abc.png` },
      },
      [],
    ],
    [
      'a success read with a message too',
      {
        ...get(`/tryons/${id}`),
        status: 200,
        json: { id, status: 'success', resultUrl: `${host}/i/r.jpg`, message: 'done' },
      },
      [],
    ],
    [
      'a failed read',
      {
        ...get(`/tryons/${id}`),
        status: 200,
        json: { id, status: 'failed', resultUrl: null, message: 'Safety checks.' },
      },
      [],
    ],
    [
      'a sync 200 success',
      { ...post('/tryons/sync'), status: 200, json: { id, status: 'success', resultUrl: `${host}/i/r.jpg` } },
      [],
    ],
    ['a sync 202 pending', { ...post('/tryons/sync'), status: 202, json: started }, []],
    [
      'an upload with extended ISO 8601 and an offset',
      { ...post('/images'), status: 200, json: { id: 'img_1', expiresAt: '2026-11-24T10:00:00.123+01:00' } },
      [],
    ],
    [
      'an upload with basic ISO 8601 and extra fields',
      { ...post('/images'), status: 200, json: { id: 'img_x', expiresAt: '20261124T100000Z', bytes: 1234 } },
      [],
    ],
    [
      'an expired result image: 410 with text',
      { method: 'GET', path: '/i/r_abc.jpg', status: 410, text: 'gone', headers: { 'content-type': 'text/plain' } },
      ['warning ERR-ENVELOPE-SHAPE'],
    ],
    [
      'a result image: 200 image/png',
      { method: 'GET', path: '/i/r_abc.png', status: 200, text: '', headers: { 'content-type': 'image/png' } },
      [],
    ],
    [
      'a result image under several segments: 404 NOT_FOUND',
      { method: 'GET', path: '/i/a/b.png', status: 404, json: err('NOT_FOUND') },
      [],
    ],
  ])('%s', (_name, given, want) => {
    expect(verdicts(given)).toEqual(want);
  });
});

describe('checks: what breaks a sentence of the spec is an error finding on its requirement', () => {
  it.each<[string, Given, string[]]>([
    [
      'create answers 201 ("Response (success): status 200")',
      { ...post('/tryons'), status: 201, json: started },
      ['error CREATE-ACCEPTED-IS-200'],
    ],
    [
      'create answers 302',
      { ...post('/tryons'), status: 302, headers: { location: '/x' } },
      ['error CREATE-ERROR-LIST'],
    ],
    [
      'sync answers 201 while pending ("202 | still working when the wait ends")',
      { ...post('/tryons/sync'), status: 201, json: started },
      ['error SYNC-202-STILL-PENDING'],
    ],
    [
      'sync answers 201 with a success',
      { ...post('/tryons/sync'), status: 201, json: { id, status: 'success', resultUrl: `${host}/i/r.jpg` } },
      ['error SYNC-200-ON-SUCCESS'],
    ],
    [
      'a 5xx the spec does not list',
      { ...post('/tryons'), status: 504, json: err('GATEWAY_TIMEOUT') },
      ['error CREATE-ERROR-LIST'],
    ],
    ['500 with another code', { ...post('/tryons'), status: 500, json: err('OOPS') }, ['error ERR-INTERNAL-ERROR']],
    [
      '502 with another code',
      { ...post('/tryons'), status: 502, json: err('BAD_GATEWAY') },
      ['error ERR-START-FAILED'],
    ],
    [
      '401 with another code',
      { ...get(`/tryons/${id}`), status: 401, json: err('UNAUTHORIZED') },
      ['error ERR-INVALID-API-KEY'],
    ],
    [
      '403 with another code for consent: false',
      { ...post('/tryons'), body: '{"consent":false}', status: 403, json: err('FORBIDDEN') },
      ['error ERR-CONSENT-REQUIRED'],
    ],
    [
      '403 with another code for a body without consent',
      { ...post('/tryons/sync'), body: '{"personImageId":"img_a"}', status: 403, json: err('NO_CONSENT') },
      ['error ERR-CONSENT-REQUIRED'],
    ],
    [
      '413 with another code for an uploaded file of 4,194,305 bytes',
      { ...post('/images'), fileBytes: 4_194_305, status: 413, json: err('PAYLOAD_TOO_LARGE') },
      ['error ERR-IMAGE-TOO-LARGE'],
    ],
    [
      '413 with a 400 code for an uploaded file over 4 MB',
      { ...post('/images'), fileBytes: 5_000_000, status: 413, json: err('UNSUPPORTED_IMAGE') },
      ['error ERR-UNSUPPORTED-IMAGE'],
    ],
    [
      '413 with a 400 code on a create (a code keeps its table status)',
      { ...post('/tryons'), body: '{"consent":true}', status: 413, json: err('UNSUPPORTED_IMAGE') },
      ['error ERR-UNSUPPORTED-IMAGE'],
    ],
    [
      '429 with another code',
      { ...post('/images'), status: 429, json: err('TOO_MANY_REQUESTS'), headers: { 'retry-after': '1' } },
      ['error ERR-RATE-LIMITED'],
    ],
    [
      'a spec code with another status (400 IMAGE_TOO_LARGE)',
      { ...post('/tryons'), status: 400, json: err('IMAGE_TOO_LARGE') },
      ['error ERR-IMAGE-TOO-LARGE'],
    ],
    [
      'a spec code with another status (409 INVALID_IMAGE_ID)',
      { ...post('/tryons'), status: 409, json: err('INVALID_IMAGE_ID') },
      ['error ERR-INVALID-IMAGE-ID', 'warning CREATE-ERROR-LIST'],
    ],
    [
      'a read of a foreign try-on: 404 with another code',
      { ...get(`/tryons/${id}`), status: 404, json: err('TRYON_NOT_FOUND') },
      ['error ERR-NOT-FOUND'],
    ],
    [
      'GET /account 401 with another code',
      { ...get('/account'), status: 401, json: err('UNAUTHENTICATED') },
      ['error ERR-INVALID-API-KEY'],
    ],
    [
      'an error without the envelope',
      { ...post('/tryons'), status: 400, json: { message: 'bad request' } },
      ['error ERR-ENVELOPE-SHAPE'],
    ],
    [
      'an error that is not JSON',
      { ...post('/tryons'), status: 500, text: 'Internal Server Error', headers: { 'content-type': 'text/html' } },
      ['error ERR-ENVELOPE-SHAPE'],
    ],
    [
      'GET /account 500 that is not JSON ("All error responses share the shape")',
      { ...get('/account'), status: 500, text: 'oops' },
      ['error ERR-ENVELOPE-SHAPE'],
    ],
    [
      'an error whose code is not a string',
      { ...post('/tryons'), status: 403, json: { error: 'no', code: 403 } },
      ['error ERR-ENVELOPE-SHAPE'],
    ],
    [
      'an empty error text ("`error` is human-readable")',
      { ...post('/tryons'), status: 400, json: err('MISSING_IDEMPOTENCY_KEY', '') },
      ['error ERR-ERROR-HUMAN-READABLE'],
    ],
    [
      '429 without Retry-After',
      { ...post('/tryons'), status: 429, json: err('RATE_LIMITED') },
      ['error LIMIT-429-RETRY-AFTER'],
    ],
    [
      '429 with an HTTP-date Retry-After ("in seconds")',
      {
        ...post('/tryons'),
        status: 429,
        json: err('RATE_LIMITED'),
        headers: { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' },
      },
      ['error LIMIT-429-RETRY-AFTER'],
    ],
    [
      'create status is not pending',
      { ...post('/tryons'), status: 200, json: { ...started, status: 'queued' } },
      ['error CREATE-RESPONSE-STATUS-PENDING'],
    ],
    [
      'create has no id',
      { ...post('/tryons'), status: 200, json: { status: 'pending', pollUrl: '/api/v1/tryons/' } },
      ['error RES-TRYON-ID-RETURNED-ON-CREATE'],
    ],
    [
      'create pollUrl without the version prefix',
      { ...post('/tryons'), status: 200, json: { ...started, pollUrl: `/tryons/${id}` } },
      ['error RES-POLL-URL-VALUE'],
    ],
    [
      'create pollUrl absolute',
      { ...post('/tryons'), status: 200, json: { ...started, pollUrl: `${host}/api/v1/tryons/${id}` } },
      ['error RES-POLL-URL-VALUE'],
    ],
    [
      'create with resultUrl: null ("Absent from the create response")',
      { ...post('/tryons'), status: 200, json: { ...started, resultUrl: null } },
      ['error RES-RESULT-URL-ABSENT-FROM-CREATE'],
    ],
    [
      'a sync 202 that is not pending',
      { ...post('/tryons/sync'), status: 202, json: { ...started, status: 'running' } },
      ['error SYNC-202-STILL-PENDING'],
    ],
    [
      'a sync 200 still pending',
      { ...post('/tryons/sync'), status: 200, json: { id, status: 'pending', resultUrl: null } },
      ['error SYNC-200-ON-SUCCESS'],
    ],
    [
      'a sync 200 with a pollUrl',
      {
        ...post('/tryons/sync'),
        status: 200,
        json: { id, status: 'success', resultUrl: `${host}/i/r.jpg`, pollUrl: `/api/v1/tryons/${id}` },
      },
      ['error RES-POLL-URL-ONLY-CREATE-AND-SYNC-202'],
    ],
    [
      'a status outside the three',
      { ...get(`/tryons/${id}`), status: 200, json: { id, status: 'done', resultUrl: null } },
      ['error RES-TRYON-STATUS-VALUES'],
    ],
    [
      'a success whose resultUrl is not under /i/',
      { ...get(`/tryons/${id}`), status: 200, json: { id, status: 'success', resultUrl: `${host}/results/r.jpg` } },
      ['error RES-RESULT-URL-HOST-AND-PATH'],
    ],
    [
      'a success whose resultUrl is relative',
      { ...get(`/tryons/${id}`), status: 200, json: { id, status: 'success', resultUrl: '/i/r.jpg' } },
      ['error RES-RESULT-URL-HOST-AND-PATH'],
    ],
    [
      'a pending read without resultUrl ("`null` in every other state")',
      { ...get(`/tryons/${id}`), status: 200, json: { id, status: 'pending' } },
      ['error RES-RESULT-URL-NULL-UNLESS-SUCCESS'],
    ],
    [
      'a failed read with a resultUrl',
      {
        ...get(`/tryons/${id}`),
        status: 200,
        json: { id, status: 'failed', resultUrl: `${host}/i/r.jpg`, message: 'x' },
      },
      ['error RES-RESULT-URL-NULL-UNLESS-SUCCESS'],
    ],
    [
      'a failed read without a message',
      { ...get(`/tryons/${id}`), status: 200, json: { id, status: 'failed', resultUrl: null } },
      ['error RES-TRYON-MESSAGE-ON-FAILED'],
    ],
    [
      'a read that is not JSON',
      { ...get(`/tryons/${id}`), status: 200, text: 'ok', headers: { 'content-type': 'text/plain' } },
      ['error GET-RESPONSE-200-BODY'],
    ],
    [
      'an upload id without img_',
      { ...post('/images'), status: 200, json: { id: 'image_1', expiresAt: '2026-11-24T10:00:00Z' } },
      ['error RES-IMAGE-ID-PREFIX'],
    ],
    [
      'an upload expiresAt that is not ISO 8601',
      { ...post('/images'), status: 200, json: { id: 'img_1', expiresAt: 'tomorrow' } },
      ['error RES-IMAGE-EXPIRES-AT-24H'],
    ],
    ['an unknown path answered 200', { ...get('/nothing'), status: 200, json: {} }, ['error ROUTING-UNKNOWN-PATH-404']],
    [
      'an unknown path answered 405',
      { ...get('/nothing'), status: 405, json: err('METHOD_NOT_ALLOWED') },
      ['error ROUTING-UNKNOWN-PATH-404'],
    ],
    [
      'an unknown path answered 404 with another code',
      { ...get('/nothing'), status: 404, json: err('ROUTE_NOT_FOUND') },
      ['error ERR-NOT-FOUND'],
    ],
    [
      'a wrong method answered 404',
      { method: 'PUT', path: '/api/v1/images', status: 404, json: err('NOT_FOUND') },
      ['error ROUTING-WRONG-METHOD-405'],
    ],
    [
      'a wrong method answered 405 with another code',
      { method: 'PUT', path: '/api/v1/images', status: 405, json: err('BAD_METHOD') },
      ['error ERR-METHOD-NOT-ALLOWED'],
    ],
  ])('%s', (_name, given, want) => {
    expect(verdicts(given)).toEqual(want);
  });
});

describe('each check on its own', () => {
  it.each<[string, Check, Given, string[]]>([
    [
      'statusIsSpecified records an unlisted 4xx as a warning',
      statusIsSpecified,
      { ...post('/tryons'), status: 418, json: err('TEAPOT') },
      ['warning CREATE-ERROR-LIST'],
    ],
    [
      'statusIsSpecified says nothing of GET /account',
      statusIsSpecified,
      { ...get('/account'), status: 418, json: err('TEAPOT') },
      [],
    ],
    [
      'errorCodeIsSpecified leaves the unlisted status to the status check',
      errorCodeIsSpecified,
      { ...post('/tryons'), status: 418, json: err('TEAPOT') },
      [],
    ],
    ['errorEnvelope skips HEAD', errorEnvelope, { method: 'HEAD', path: '/api/v1/nothing', status: 404 }, []],
    [
      'jsonContentType accepts application/problem+json',
      jsonContentType,
      { ...post('/tryons'), status: 400, json: err('X'), headers: { 'content-type': 'application/problem+json' } },
      [],
    ],
    [
      'jsonContentType records a JSON body without a Content-Type',
      jsonContentType,
      {
        ...post('/images'),
        status: 200,
        json: { id: 'img_1', expiresAt: '2026-11-24T10:00:00Z' },
        headers: { 'content-type': '' },
      },
      ['warning UPLOAD-RESPONSE-200'],
    ],
    [
      'bodyMatchesSpec never reads GET /account',
      bodyMatchesSpec,
      { ...get('/account'), status: 200, json: [1, 2] },
      [],
    ],
    [
      'retryAfterOn429 records a result image 429 without Retry-After',
      retryAfterOn429,
      { method: 'GET', path: '/i/r.jpg', status: 429, json: err('RATE_LIMITED') },
      ['warning LIMIT-429-RETRY-AFTER'],
    ],
  ])('%s', (_name, check, given, want) => {
    expect(verdicts(given, [check])).toEqual(want);
  });

  it.each<[string, Given, string, string[]]>([
    [
      'a base URL at the host root: its operations are judged',
      { method: 'POST', path: '/tryons', status: 201, json: started },
      '',
      ['error CREATE-ACCEPTED-IS-200'],
    ],
    [
      'a base URL at the host root: its unknown paths are routing misses',
      { method: 'GET', path: '/nothing', status: 200, json: {} },
      '',
      ['error ROUTING-UNKNOWN-PATH-404'],
    ],
    [
      'a base URL under a proxy prefix',
      {
        method: 'GET',
        path: '/proxy/api/v1/tryons/x',
        status: 200,
        json: { id: 'x', status: 'done', resultUrl: null },
      },
      '/proxy/api/v1',
      ['error RES-TRYON-STATUS-VALUES'],
    ],
    [
      'a path outside the base URL is not judged as an unknown endpoint',
      { method: 'GET', path: '/api/v1/tryons/x', status: 200, json: {} },
      '/proxy/api/v1',
      ['warning ROUTING-UNKNOWN-PATH-404'],
    ],
    [
      'result images stay at the host, whatever the base path',
      { method: 'GET', path: '/i/r.jpg', status: 404, text: 'gone' },
      '/proxy/api/v1',
      ['warning ERR-ENVELOPE-SHAPE'],
    ],
  ])('%s', (_name, given, basePath, want) => {
    const got = runChecks(exchange(given), allChecks, { basePath })
      .map((f) => `${f.severity} ${f.requirement}`)
      .sort();
    expect(got).toEqual(want);
  });

  it('writes findings as "Received: … / Documented: …"', () => {
    const [f] = runChecks(exchange({ ...post('/tryons'), status: 201, json: started }));
    expect(f?.message).toMatch(/^Received: 201\nDocumented: success: 200; Errors: /);
    expect(f?.exchange).toBe(1);
  });
});

describe('checks: a body of any depth and size', () => {
  const deep = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
  const unread = 'the target answered a JSON body nested deeper than 64 levels';
  const notRead = (g: Given): Answered => {
    const ex = exchange(g);
    return { ...ex, response: { ...ex.response, json: undefined, jsonUnread: unread } };
  };

  it.each<[string, Given, string[]]>([
    ['a try-on read', { ...get(`/tryons/${id}`), status: 200, text: '[[[[' }, ['warning GET-RESPONSE-200-BODY']],
    ['an error', { ...post('/tryons'), status: 400, text: '[[[[' }, ['warning ERR-ENVELOPE-SHAPE']],
    ['GET /account', { ...get('/account'), status: 200, text: '[[[[' }, ['warning ACCOUNT-GET-READS-CREDITS']],
  ])('records a body the runner did not read (%s), and judges nothing of it', (_name, given, want) => {
    const findings = runChecks(notRead(given));
    expect(findings.map((f) => `${f.severity} ${f.requirement}`).sort()).toEqual(want);
    expect(findings.find((f) => f.check === 'json_readable')?.message).toBe(
      `Received: ${unread}\nDocumented: JSON within 64 levels and 1048576 bytes, the runner's bounds (the spec sets none)`,
    );
  });

  it('judges a body with fields nested 200,000 levels deep without a throw, each value shown bounded', () => {
    const json = { id: deep(200_000), status: 'success', resultUrl: deep(200_000), huge: 'x'.repeat(1_000_000) };
    const findings = runChecks(exchange({ ...get(`/tryons/${id}`), status: 200, json, text: '{"id": [[[[' }));
    expect(findings.map((f) => `${f.severity} ${f.requirement}`).sort()).toEqual([
      'error GET-RESPONSE-200-BODY',
      'error RES-RESULT-URL-HOST-AND-PATH',
    ]);
    for (const f of findings) expect(f.message).toContain('(a value nested deeper than 64 levels)');
    const long = runChecks(
      exchange({
        ...get(`/tryons/${id}`),
        status: 200,
        json: { id: 'x'.repeat(1_000_000), status: 'done', resultUrl: null },
      }),
    );
    const longCode = runChecks(
      exchange({ ...get(`/tryons/${id}`), status: 401, json: { error: 'x', code: 'C'.repeat(1_000_000) } }),
    );
    expect(longCode.length).toBeGreaterThan(0);
    for (const f of [...long, ...longCode]) expect(f.message.length).toBeLessThan(1_000);
  });
});
