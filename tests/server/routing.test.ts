/**
 * Unknown paths and methods over HTTP (spec: "Unknown paths and methods"; openapi.yaml
 * x-routing-errors): a path with no endpoint is 404 NOT_FOUND, a method the endpoint does not accept
 * is 405 METHOD_NOT_ALLOWED with an Allow header, and every error is the JSON envelope.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from '../../src/fixtures/images.ts';
import { newKey, pollUntilFinal, startHarness, urlBody, type Exchange, type Harness } from './harness.ts';

let h: Harness;
let apiKey: string;
let tryOnId: string;
let resultPath: string;

beforeAll(async () => {
  h = await startHarness();
  const account = await h.newAccount();
  apiKey = account.apiKey;
  await h.control('PUT', `/accounts/${account.accountId}/limits`, {
    startsPerMinute: 1000,
    pollsPerMinute: 1000,
    uploadsPerMinute: 1000,
  });
  const start = await h.call('POST', '/api/v1/tryons', {
    key: apiKey,
    json: urlBody(h),
    headers: { 'idempotency-key': newKey() },
  });
  expect(start.status).toBe(200);
  tryOnId = start.json.id;
  const final = await pollUntilFinal(h, apiKey, tryOnId);
  expect(final.json.status).toBe('success');
  resultPath = new URL(final.json.resultUrl).pathname;
});

afterAll(async () => h?.close());

afterEach(() => {
  expect(h.violations.splice(0)).toEqual([]);
});

const mediaType = (res: Exchange): string =>
  String(res.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim() ?? '';

/** The parts of an error answer a test compares: status, code, and whether it is the JSON envelope. */
function envelope(res: Exchange) {
  return {
    status: res.status,
    code: res.json?.code,
    contentType: mediaType(res),
    hasMessage: typeof res.json?.error === 'string' && res.json.error.length > 0,
  };
}

const notFound = { status: 404, code: 'NOT_FOUND', contentType: 'application/json', hasMessage: true };

/** Deterministic "random" paths: segments of base62 made from seeded bytes. */
function randomPaths(count: number): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: count }, (_, index) => {
    const bytes = randomBytes(1000 + index, 24);
    const segments = 1 + ((bytes[0] ?? 0) % 4);
    const parts = Array.from({ length: segments }, (_, s) =>
      Array.from(bytes.subarray(1 + s * 5, 6 + s * 5), (b) => alphabet[b % alphabet.length]).join(''),
    );
    return `/${parts.join('/')}`;
  });
}

describe('unknown paths', () => {
  const fixed = [
    '/',
    '/api',
    '/api/v1',
    '/api/v1/',
    '/api/v2/tryons',
    '/api/v1/tryon',
    '/api/v1/try-ons',
    '/api/v1/tryons/sync/extra',
    '/api/v1/tryons/ton_x/result',
    '/api/v1/images/img_x',
    '/api/v1/account/',
    '/api/v1/account/credits',
    '/api/v1/accounts',
    '/API/V1/ACCOUNT',
    '/i',
    '/i/',
    '/i/a/b.jpg',
    '/favicon.ico',
    '/.env',
    '/index.html?x=1',
    '/%2e%2e/%2e%2e/etc/passwd',
  ];

  it.each([...fixed, ...randomPaths(12)])('gives 404 NOT_FOUND with the envelope for GET %s', async (path) => {
    expect(envelope(await h.call('GET', path))).toEqual(notFound);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])(
    'gives 404 NOT_FOUND with the envelope for %s on unknown paths, with or without a key',
    async (method) => {
      const answers = [];
      for (const path of ['/api/v1/nothing-here', '/api/v2/tryons', '/nope']) {
        answers.push(envelope(await h.call(method, path)));
        answers.push(envelope(await h.call(method, path, { key: apiKey })));
      }
      expect(answers).toEqual(answers.map(() => notFound));
    },
  );

  it('gives 404 NOT_FOUND (not 401) for /api/v1/tryons/ with an empty id and no key', async () => {
    // `/tryons/{id}` has no endpoint for an empty id (TryOnId has minLength 1).
    expect(envelope(await h.call('GET', '/api/v1/tryons/'))).toEqual(notFound);
  });

  it('gives 404 NOT_FOUND for an unknown path even when its body is malformed JSON or over 64 KiB', async () => {
    const bad = await h.call('POST', '/api/v1/nothing-here', {
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    const big = await h.call('POST', '/api/v1/nothing-here', {
      rawBody: `{"pad":"${'x'.repeat(70 * 1024)}"}`,
      headers: { 'content-type': 'application/json' },
    });
    expect([envelope(bad), envelope(big)]).toEqual([notFound, notFound]);
  });
});

describe('wrong methods on known paths', () => {
  // [path, the method it accepts, methods to try]; GET on the two create paths has its own test.
  const table = (): ReadonlyArray<readonly [string, string, readonly string[]]> => [
    ['/api/v1/tryons', 'POST', ['PUT', 'PATCH', 'DELETE']],
    ['/api/v1/tryons/sync', 'POST', ['PUT', 'PATCH', 'DELETE']],
    [`/api/v1/tryons/${tryOnId}`, 'GET', ['POST', 'PUT', 'PATCH', 'DELETE']],
    ['/api/v1/tryons/ton_unknown000000000000', 'GET', ['POST', 'PUT', 'PATCH', 'DELETE']],
    ['/api/v1/images', 'POST', ['GET', 'PUT', 'PATCH', 'DELETE']],
    ['/api/v1/account', 'GET', ['POST', 'PUT', 'PATCH', 'DELETE']],
    [resultPath, 'GET', ['POST', 'PUT', 'PATCH', 'DELETE']],
  ];

  const allowed = (res: Exchange): string[] =>
    String(res.headers.allow ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter((m) => m !== '');

  it.each(['/api/v1/tryons', '/api/v1/tryons/sync'])(
    'gives 405 METHOD_NOT_ALLOWED with Allow: POST for GET %s, with or without a key',
    async (path) => {
      // openapi.yaml: GET /tryons/sync is a 405 too ("the literal path wins over /tryons/{id}").
      const seen = [];
      for (const key of [undefined, apiKey]) {
        const res = await h.call('GET', path, key === undefined ? {} : { key });
        seen.push({ withKey: key !== undefined, ...envelope(res), allow: allowed(res) });
      }
      expect(seen).toEqual(
        [false, true].map((withKey) => ({
          withKey,
          status: 405,
          code: 'METHOD_NOT_ALLOWED',
          contentType: 'application/json',
          hasMessage: true,
          allow: ['POST'],
        })),
      );
    },
  );

  it('gives 405 METHOD_NOT_ALLOWED with an Allow header naming the accepted method, for every wrong method on every path', async () => {
    const seen = [];
    const expected = [];
    for (const [path, accepts, methods] of table()) {
      for (const method of methods) {
        for (const key of [undefined, apiKey]) {
          const res = await h.call(method, path, key === undefined ? {} : { key });
          const allow = allowed(res);
          seen.push({
            method,
            path,
            ...envelope(res),
            allowsAccepted: allow.includes(accepts),
            allowsTried: allow.includes(method),
          });
          expected.push({
            method,
            path,
            status: 405,
            code: 'METHOD_NOT_ALLOWED',
            contentType: 'application/json',
            hasMessage: true,
            allowsAccepted: true,
            allowsTried: false,
          });
        }
      }
    }
    expect(seen).toEqual(expected);
  });

  it('gives 405 METHOD_NOT_ALLOWED whatever body the wrong method carries', async () => {
    const bodies: ReadonlyArray<readonly [string, { rawBody: string; headers: Record<string, string> }]> = [
      ['a JSON body', { rawBody: JSON.stringify(urlBody(h)), headers: { 'content-type': 'application/json' } }],
      ['a text body', { rawBody: 'hello', headers: { 'content-type': 'text/plain' } }],
      ['a body of an unknown type', { rawBody: 'x', headers: { 'content-type': 'application/x-unknown' } }],
      ['a malformed JSON body', { rawBody: '{not json', headers: { 'content-type': 'application/json' } }],
      [
        'a JSON body over 64 KiB',
        { rawBody: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }), headers: { 'content-type': 'application/json' } },
      ],
    ];
    const seen = [];
    for (const [name, init] of bodies) {
      for (const [method, path] of [
        ['PUT', '/api/v1/tryons'],
        ['PATCH', `/api/v1/tryons/${tryOnId}`],
        ['DELETE', '/api/v1/account'],
      ] as const) {
        const res = await h.call(method, path, {
          ...init,
          key: apiKey,
          headers: { ...init.headers, 'idempotency-key': newKey() },
        });
        seen.push({
          name,
          method,
          path,
          status: res.status,
          code: res.json?.code,
          allow: res.headers.allow !== undefined,
        });
      }
    }
    expect(seen).toEqual(
      seen.map(({ name, method, path }) => ({
        name,
        method,
        path,
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        allow: true,
      })),
    );
  });
});

describe('every error is JSON', () => {
  it('answers errors of every operation with the {error, code} envelope and a JSON content type', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('GIF89a not really')], { type: 'image/gif' }), 'a.gif');
    const request = new Request('http://127.0.0.1/', { method: 'POST', body: form });
    const multipart = {
      rawBody: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
    };
    const key = { 'idempotency-key': newKey() };
    const errors: Array<readonly [string, Promise<Exchange>, number]> = [
      ['401 create', h.call('POST', '/api/v1/tryons', { json: urlBody(h), headers: key }), 401],
      ['401 sync', h.call('POST', '/api/v1/tryons/sync', { json: urlBody(h), headers: key }), 401],
      ['401 get', h.call('GET', `/api/v1/tryons/${tryOnId}`), 401],
      ['401 upload', h.call('POST', '/api/v1/images', multipart), 401],
      ['401 account', h.call('GET', '/api/v1/account'), 401],
      ['400 missing idempotency key', h.call('POST', '/api/v1/tryons', { key: apiKey, json: urlBody(h) }), 400],
      [
        '400 malformed JSON',
        h.call('POST', '/api/v1/tryons', {
          key: apiKey,
          rawBody: '{',
          headers: { ...key, 'content-type': 'application/json' },
        }),
        400,
      ],
      [
        '403 consent',
        h.call('POST', '/api/v1/tryons/sync', {
          key: apiKey,
          json: urlBody(h, undefined, { consent: false }),
          headers: { 'idempotency-key': newKey() },
        }),
        403,
      ],
      [
        '415 create text/plain',
        h.call('POST', '/api/v1/tryons', {
          key: apiKey,
          rawBody: 'x',
          headers: { ...key, 'content-type': 'text/plain' },
        }),
        415,
      ],
      ['415 upload JSON', h.call('POST', '/api/v1/images', { key: apiKey, json: {} }), 415],
      ['400 upload GIF', h.call('POST', '/api/v1/images', { key: apiKey, ...multipart }), 400],
      ['404 try-on', h.call('GET', '/api/v1/tryons/ton_unknown000000000000', { key: apiKey }), 404],
      ['404 result image', h.call('GET', '/i/r_unknownUnknownUnknown0.jpg'), 404],
      ['404 route', h.call('GET', '/api/v1/unknown'), 404],
      ['405 route', h.call('DELETE', '/api/v1/tryons'), 405],
    ];
    const seen = [];
    for (const [name, pending] of errors) {
      const res = await pending;
      seen.push({
        name,
        status: res.status,
        json: mediaType(res) === 'application/json',
        shape: Object.keys(res.json ?? {}).sort(),
      });
    }
    expect(seen).toEqual(errors.map(([name, , status]) => ({ name, status, json: true, shape: ['code', 'error'] })));
  });
});
