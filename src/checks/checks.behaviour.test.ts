/**
 * Each per-exchange check on the branches the scenario rows leave open: routing misses and what may
 * answer before routing, statuses and codes the spec does not list, the envelope, the Content-Type, a
 * body the runner did not read, Retry-After, and a base URL with another path. Each row names the check,
 * the exchange, and the findings as "severity REQUIREMENT title".
 */
import { describe, expect, it } from 'vitest';
import type { Answered } from '../client/exchange.ts';
import {
  bodyMatchesSpec,
  errorCodeIsSpecified,
  errorEnvelope,
  jsonContentType,
  jsonReadable,
  retryAfterOn429,
  runChecks,
  statusIsSpecified,
  type Check,
} from './checks.ts';

interface Given {
  readonly method?: string;
  readonly path: string;
  readonly status: number;
  readonly json?: unknown;
  readonly text?: string;
  readonly headers?: Record<string, string>;
  readonly unread?: string;
  readonly fileBytes?: number;
}

function exchange(g: Given): Answered {
  const text = g.text ?? (g.json === undefined ? '' : JSON.stringify(g.json));
  return {
    seq: 7,
    request: {
      method: g.method ?? 'GET',
      url: `https://api.example.test${g.path}`,
      headers: {},
      ...(g.fileBytes !== undefined && {
        multipart: { field: 'file', filename: 'p.jpg', contentType: 'image/jpeg', bytes: g.fileBytes },
      }),
    },
    response: {
      status: g.status,
      headers: { ...(g.json !== undefined && { 'content-type': 'application/json' }), ...g.headers },
      text,
      json: g.json,
      ...(g.unread !== undefined && { jsonUnread: g.unread }),
      bytes: Buffer.from(text),
      truncated: false,
      durationMs: 1,
    },
  };
}

const said = (check: Check, g: Given, basePath?: string): string[] =>
  check(exchange(g), basePath === undefined ? {} : { basePath }).map(
    (f) => `${f.severity} ${f.requirement} ${f.title}`,
  );
const err = (code: string, error = 'Something went wrong.') => ({ error, code });
const unknownPath = 'ROUTING-UNKNOWN-PATH-404 Unexpected status for a route with no such endpoint or method';
const wrongMethod = 'ROUTING-WRONG-METHOD-405 Unexpected status for a route with no such endpoint or method';

describe('statusIsSpecified: routing misses', () => {
  it.each<[string, Given, string[]]>([
    ['an unknown path answered 404', { path: '/api/v1/nope', status: 404 }, []],
    ['an unknown path answered 200', { path: '/api/v1/nope', status: 200 }, [`error ${unknownPath}`]],
    ['a wrong method answered 405', { method: 'DELETE', path: '/api/v1/tryons', status: 405 }, []],
    [
      'a wrong method answered 404',
      { method: 'DELETE', path: '/api/v1/tryons', status: 404 },
      [`error ${wrongMethod}`],
    ],
    ['401 before routing', { path: '/api/v1/nope', status: 401 }, []],
    ['429 before routing', { path: '/api/v1/nope', status: 429 }, []],
    ['503 before routing', { path: '/api/v1/nope', status: 503 }, []],
    ['500 is no check before routing', { path: '/api/v1/nope', status: 500 }, [`error ${unknownPath}`]],
    ['HEAD answered like GET', { method: 'HEAD', path: '/api/v1/nope', status: 200 }, []],
    ['OPTIONS answered for CORS', { method: 'options', path: '/api/v1/nope', status: 204 }, []],
    [
      'HEAD answered 500: recorded only',
      { method: 'HEAD', path: '/api/v1/nope', status: 500 },
      [`warning ${unknownPath}`],
    ],
    ['HEAD answered 301', { method: 'HEAD', path: '/api/v1/nope', status: 301 }, [`warning ${unknownPath}`]],
    ['a path outside {base_url}: recorded only', { path: '/elsewhere', status: 200 }, [`warning ${unknownPath}`]],
  ])('%s', (_name, g, want) => {
    expect(said(statusIsSpecified, g)).toEqual(want);
  });

  it('quotes the spec sentence of the status it wanted', () => {
    const [f404] = statusIsSpecified(exchange({ path: '/api/v1/nope', status: 200 }));
    expect(f404?.message).toBe(
      'Received: 200\nDocumented: 404 NOT_FOUND ("A path with no endpoint gives 404 NOT_FOUND")',
    );
    expect(f404?.exchange).toBe(7);
    const [f405] = statusIsSpecified(exchange({ method: 'PUT', path: '/api/v1/tryons', status: 404, json: err('X') }));
    expect(f405?.message).toBe(
      'Received: 404 X\nDocumented: 405 METHOD_NOT_ALLOWED ("a method the endpoint does not accept gives 405 METHOD_NOT_ALLOWED")',
    );
  });
});

describe('statusIsSpecified: an operation', () => {
  it('fails a 5xx the operation does not list, naming the ones it does', () => {
    const [f] = statusIsSpecified(exchange({ method: 'GET', path: '/api/v1/tryons/t_1', status: 502, json: err('X') }));
    expect(f).toMatchObject({
      severity: 'error',
      requirement: 'GET-ERROR-LIST',
      title: '502 is not a status the spec lists for getTryOn',
    });
    expect(f?.message).toMatch(/^Received: 502 X\nDocumented: Errors: \d{3}(, \d{3})*$/);
  });

  it('records an unlisted 4xx, saying when the reference server makes the same choice', () => {
    const ours = statusIsSpecified(
      exchange({ method: 'POST', path: '/api/v1/tryons', status: 415, json: err('UNSUPPORTED_MEDIA_TYPE') }),
    );
    const theirs = statusIsSpecified(
      exchange({ method: 'POST', path: '/api/v1/tryons', status: 415, json: err('BAD_TYPE') }),
    );
    expect(ours.map((f) => [f.severity, f.title])).toEqual([
      [
        'warning',
        'An answer the spec does not list, recorded: a case it leaves open may get it (the reference server makes the same choice)',
      ],
    ]);
    expect(theirs.map((f) => f.title)).toEqual([
      'An answer the spec does not list, recorded: a case it leaves open may get it',
    ]);
  });

  it.each<[string, Given, string[]]>([
    [
      'a 201 to a create',
      { method: 'POST', path: '/api/v1/tryons', status: 201, json: {} },
      ['error CREATE-ACCEPTED-IS-200 201 is not a status the spec gives for createTryOn'],
    ],
    [
      'a sync 201 still pending',
      { method: 'POST', path: '/api/v1/tryons/sync', status: 201, json: { status: 'pending' } },
      ['error SYNC-202-STILL-PENDING 201 is not a status the spec gives for createTryOnSync'],
    ],
    [
      'a sync 201 finished',
      { method: 'POST', path: '/api/v1/tryons/sync', status: 201, json: { status: 'success' } },
      ['error SYNC-200-ON-SUCCESS 201 is not a status the spec gives for createTryOnSync'],
    ],
    [
      'a 302 to a read',
      { path: '/api/v1/tryons/t_1', status: 302 },
      ['error GET-ERROR-LIST 302 is not a status the spec gives for getTryOn'],
    ],
    [
      'a 199 to a read',
      { path: '/api/v1/tryons/t_1', status: 199 },
      ['error GET-ERROR-LIST 199 is not a status the spec gives for getTryOn'],
    ],
    ['a 200 to a read', { path: '/api/v1/tryons/t_1', status: 200 }, []],
    ['any status from GET /account, which shows none', { path: '/api/v1/account', status: 204 }, []],
    ['an error from GET /account', { path: '/api/v1/account', status: 418 }, []],
  ])('%s', (_name, g, want) => {
    expect(said(statusIsSpecified, g)).toEqual(want);
  });

  it('names the success and error statuses it knows when one is not given', () => {
    const [f] = statusIsSpecified(exchange({ method: 'POST', path: '/api/v1/tryons/sync', status: 204 }));
    expect(f?.message).toMatch(/^Received: 204\nDocumented: success: 200 or 202; Errors: 400, /);
  });
});

describe('errorCodeIsSpecified', () => {
  it.each<[string, Given, string[]]>([
    [
      'a spec code with another status than the table’s',
      { method: 'POST', path: '/api/v1/tryons', status: 400, json: err('RATE_LIMITED') },
      ["error ERR-RATE-LIMITED RATE_LIMITED with a status other than the Errors table's"],
    ],
    [
      'a 404 of an unknown path with another code',
      { path: '/api/v1/nope', status: 404, json: err('NO_ROUTE') },
      ["error ERR-NOT-FOUND 404 with a code other than the spec's"],
    ],
    [
      'a 401 before routing with another code',
      { path: '/api/v1/nope', status: 401, json: err('NO_KEY') },
      ["error ERR-INVALID-API-KEY 401 with a code other than the spec's"],
    ],
    ['a 404 of an unknown path with its code', { path: '/api/v1/nope', status: 404, json: err('NOT_FOUND') }, []],
    ['a 418 of an unknown path', { path: '/api/v1/nope', status: 418, json: err('TEAPOT') }, []],
    ['a HEAD miss with another code', { method: 'HEAD', path: '/api/v1/nope', status: 404, json: err('NO_ROUTE') }, []],
    [
      'GET /account: 401 with another code',
      { path: '/api/v1/account', status: 401, json: err('NO_KEY') },
      ["error ERR-INVALID-API-KEY 401 with a code other than the spec's"],
    ],
    [
      'GET /account: 429 with another code',
      { path: '/api/v1/account', status: 429, json: err('SLOW_DOWN') },
      ["error ERR-RATE-LIMITED 429 with a code other than the spec's"],
    ],
    ['GET /account: 400 with any code', { path: '/api/v1/account', status: 400, json: err('ANY') }, []],
    [
      'a status the operation does not list',
      { method: 'POST', path: '/api/v1/tryons', status: 418, json: err('TEAPOT') },
      [],
    ],
    ['a result image’s error, outside {base_url}', { path: '/i/r.png', status: 404, json: err('GONE') }, []],
    ['a success', { path: '/api/v1/tryons/t_1', status: 200, json: err('X') }, []],
    ['an error without a code', { path: '/api/v1/tryons/t_1', status: 404, json: { error: 'x' } }, []],
    [
      'a 413 upload over 4 MB with another code',
      { method: 'POST', path: '/api/v1/images', status: 413, json: err('TOO_BIG'), fileBytes: 5_000_000 },
      ["error ERR-IMAGE-TOO-LARGE 413 with a code other than the spec's"],
    ],
  ])('%s', (_name, g, want) => {
    expect(said(errorCodeIsSpecified, g)).toEqual(want);
  });

  it('records another code on a 413 whose case the request does not show, naming the code it would owe', () => {
    const [f] = errorCodeIsSpecified(
      exchange({ method: 'POST', path: '/api/v1/tryons', status: 413, json: err('BODY_TOO_LARGE') }),
    );
    expect(f).toMatchObject({
      severity: 'warning',
      requirement: 'CREATE-ERROR-LIST',
      title: 'A 413 code other than IMAGE_TOO_LARGE, recorded: the request shows no case of IMAGE_TOO_LARGE',
      message: 'Received: 413 BODY_TOO_LARGE\nDocumented: 413 IMAGE_TOO_LARGE',
    });
  });

  it('records another code on a 400, and says when it is the reference server’s choice', () => {
    const [ours] = errorCodeIsSpecified(
      exchange({ method: 'POST', path: '/api/v1/images', status: 400, json: err('INVALID_REQUEST') }),
    );
    expect(ours?.title).toBe(
      'A 400 code the spec does not list, recorded: a case it leaves open may get it (the reference server makes the same choice)',
    );
    expect(ours?.severity).toBe('warning');
  });

  it('cuts a target’s long code at 100 characters in what it shows', () => {
    const code = 'X'.repeat(150);
    const [f] = errorCodeIsSpecified(exchange({ path: '/api/v1/nope', status: 404, json: err(code) }));
    expect(f?.message).toBe(`Received: 404 ${'X'.repeat(100)}…\nDocumented: 404 NOT_FOUND`);
  });
});

describe('errorEnvelope', () => {
  it.each<[string, Given, string[]]>([
    ['the envelope', { path: '/api/v1/tryons/t_1', status: 404, json: err('NOT_FOUND') }, []],
    [
      'an array',
      { path: '/api/v1/tryons/t_1', status: 404, json: [] },
      ['error ERR-ENVELOPE-SHAPE Error without the {error, code} envelope'],
    ],
    [
      'null',
      { path: '/api/v1/tryons/t_1', status: 404, json: null, text: 'null' },
      ['error ERR-ENVELOPE-SHAPE Error without the {error, code} envelope'],
    ],
    [
      'a number as error',
      { path: '/api/v1/tryons/t_1', status: 404, json: { error: 1, code: 'X' } },
      ['error ERR-ENVELOPE-SHAPE Error without the {error, code} envelope'],
    ],
    [
      'a number as code',
      { path: '/api/v1/tryons/t_1', status: 404, json: { error: 'x', code: 1 } },
      ['error ERR-ENVELOPE-SHAPE Error without the {error, code} envelope'],
    ],
    [
      'blank error text',
      { path: '/api/v1/tryons/t_1', status: 404, json: err('X', ' \n') },
      ['error ERR-ERROR-HUMAN-READABLE Error text is empty'],
    ],
    [
      'a result image without it: recorded',
      { path: '/i/r.png', status: 404, text: 'gone' },
      ['warning ERR-ENVELOPE-SHAPE Error without the {error, code} envelope'],
    ],
    ['HEAD has no body', { method: 'HEAD', path: '/api/v1/tryons/t_1', status: 404 }, []],
    ['a body the runner did not read', { path: '/api/v1/tryons/t_1', status: 404, unread: 'too deep' }, []],
    ['a success', { path: '/api/v1/tryons/t_1', status: 200, text: 'ok' }, []],
  ])('%s', (_name, g, want) => {
    expect(said(errorEnvelope, g)).toEqual(want);
  });

  it('shows what came: the text, or that nothing readable came, and the blank error as JSON', () => {
    const [empty] = errorEnvelope(exchange({ path: '/api/v1/tryons/t_1', status: 500 }));
    expect(empty?.message).toBe('Received: (empty or non-JSON body)\nDocumented: {"error": string, "code": string}');
    const [blank] = errorEnvelope(exchange({ path: '/api/v1/tryons/t_1', status: 500, json: err('X', ' ') }));
    expect(blank?.message).toBe('Received: " "\nDocumented: "`error` is human-readable"');
  });
});

describe('jsonContentType and jsonReadable', () => {
  it.each<[string, Given, string[]]>([
    ['application/json', { path: '/api/v1/tryons/t_1', status: 404, json: err('X') }, []],
    [
      'a +json type',
      {
        path: '/api/v1/tryons/t_1',
        status: 404,
        json: err('X'),
        headers: { 'content-type': 'application/problem+json' },
      },
      [],
    ],
    [
      'upper case',
      {
        path: '/api/v1/tryons/t_1',
        status: 404,
        json: err('X'),
        headers: { 'content-type': 'APPLICATION/JSON; charset=utf-8' },
      },
      [],
    ],
    [
      'text/plain on an error',
      { path: '/api/v1/tryons/t_1', status: 404, json: err('X'), headers: { 'content-type': 'text/plain' } },
      ['warning ERR-ENVELOPE-SHAPE A JSON body under another Content-Type, recorded'],
    ],
    [
      'text/json on a success',
      { path: '/api/v1/tryons/t_1', status: 200, json: {}, headers: { 'content-type': 'text/json' } },
      ['warning GET-RESPONSE-200-BODY A JSON body under another Content-Type, recorded'],
    ],
    [
      'a JSON-like type in the middle',
      { path: '/api/v1/nope', status: 404, json: err('X'), headers: { 'content-type': 'text/x-application/json' } },
      ['warning ERR-ENVELOPE-SHAPE A JSON body under another Content-Type, recorded'],
    ],
    [
      'no JSON body',
      { path: '/api/v1/tryons/t_1', status: 200, text: 'x', headers: { 'content-type': 'text/plain' } },
      [],
    ],
    [
      'HEAD',
      { method: 'HEAD', path: '/api/v1/tryons/t_1', status: 200, json: {}, headers: { 'content-type': 'text/plain' } },
      [],
    ],
  ])('Content-Type: %s', (_name, g, want) => {
    expect(said(jsonContentType, g)).toEqual(want);
  });

  it('shows a missing Content-Type as such', () => {
    const ex = exchange({ path: '/api/v1/tryons/t_1', status: 200, json: {} });
    const [f] = jsonContentType({ ...ex, response: { ...ex.response, headers: {} } });
    expect(f?.message).toBe('Received: (no Content-Type)\nDocumented: application/json (not named by the spec)');
  });

  it.each<[string, Given, string[]]>([
    [
      'a success body not read',
      { path: '/api/v1/tryons/t_1', status: 200, unread: 'deeper than the bound' },
      ['warning GET-RESPONSE-200-BODY A body the runner does not read, recorded'],
    ],
    [
      'an error body not read',
      { path: '/api/v1/tryons/t_1', status: 404, unread: 'x' },
      ['warning ERR-ENVELOPE-SHAPE A body the runner does not read, recorded'],
    ],
    [
      'a routing miss not read',
      { path: '/api/v1/nope', status: 200, unread: 'x' },
      ['warning ERR-ENVELOPE-SHAPE A body the runner does not read, recorded'],
    ],
    ['a body read', { path: '/api/v1/tryons/t_1', status: 200, json: {} }, []],
  ])('jsonReadable: %s', (_name, g, want) => {
    expect(said(jsonReadable, g)).toEqual(want);
  });

  it('says what was not read and the runner’s bounds', () => {
    const [f] = jsonReadable(exchange({ path: '/api/v1/tryons/t_1', status: 200, unread: 'nested 300 levels' }));
    expect(f?.message).toMatch(
      /^Received: nested 300 levels\nDocumented: JSON within \d+ levels and \d+ bytes, the runner's bounds \(the spec sets none\)$/,
    );
  });
});

describe('bodyMatchesSpec', () => {
  it.each<[string, Given, string[]]>([
    [
      'a 200 read without an id',
      { path: '/api/v1/tryons/t_1', status: 200, json: { status: 'pending', resultUrl: null } },
      ['error GET-RESPONSE-200-BODY Body of getTryOn 200: no try-on id'],
    ],
    ['a 302', { path: '/api/v1/tryons/t_1', status: 302, json: {} }, []],
    ['a 199', { path: '/api/v1/tryons/t_1', status: 199, json: {} }, []],
    ['a 400', { path: '/api/v1/tryons/t_1', status: 400, json: {} }, []],
    ['HEAD', { method: 'HEAD', path: '/api/v1/tryons/t_1', status: 200 }, []],
    ['a body not read', { path: '/api/v1/tryons/t_1', status: 200, unread: 'x' }, []],
    ['a routing miss', { path: '/api/v1/nope', status: 200, json: {} }, []],
  ])('%s', (_name, g, want) => {
    expect(said(bodyMatchesSpec, g)).toEqual(want);
  });
});

describe('retryAfterOn429', () => {
  it.each<[string, Given, string[]]>([
    ['whole seconds', { path: '/api/v1/tryons/t_1', status: 429, headers: { 'retry-after': '5' } }, []],
    ['whole seconds with spaces', { path: '/api/v1/tryons/t_1', status: 429, headers: { 'retry-after': ' 5 ' } }, []],
    [
      'seconds with a unit',
      { path: '/api/v1/tryons/t_1', status: 429, headers: { 'retry-after': '5s' } },
      ['error LIMIT-429-RETRY-AFTER 429 without Retry-After in seconds'],
    ],
    [
      'a fraction',
      { path: '/api/v1/tryons/t_1', status: 429, headers: { 'retry-after': '1.5' } },
      ['error LIMIT-429-RETRY-AFTER 429 without Retry-After in seconds'],
    ],
    [
      'none',
      { path: '/api/v1/tryons/t_1', status: 429 },
      ['error LIMIT-429-RETRY-AFTER 429 without Retry-After in seconds'],
    ],
    [
      'none on a result image: recorded',
      { path: '/i/r.png', status: 429 },
      ['warning LIMIT-429-RETRY-AFTER 429 without Retry-After in seconds'],
    ],
    ['another status', { path: '/api/v1/tryons/t_1', status: 503 }, []],
  ])('%s', (_name, g, want) => {
    expect(said(retryAfterOn429, g)).toEqual(want);
  });

  it('shows the value that came, or that none came', () => {
    expect(retryAfterOn429(exchange({ path: '/api/v1/tryons/t_1', status: 429 }))[0]?.message).toBe(
      'Received: (no Retry-After)\nDocumented: Retry-After: <seconds>',
    );
  });
});

describe('a base URL with another path', () => {
  it('judges requests under the configured base path as the operations, and the default one as misses', () => {
    const created = { id: 't_1', status: 'pending', pollUrl: '/api/v1/tryons/t_1' };
    expect(said(statusIsSpecified, { method: 'POST', path: '/v2/tryons', status: 201, json: created }, '/v2')).toEqual([
      'error CREATE-ACCEPTED-IS-200 201 is not a status the spec gives for createTryOn',
    ]);
    expect(said(statusIsSpecified, { path: '/api/v1/tryons/t_1', status: 200 }, '/v2')).toEqual([
      `warning ${unknownPath}`,
    ]);
    expect(said(errorEnvelope, { path: '/v2/nope', status: 404, text: 'x' }, '/v2')).toEqual([
      'error ERR-ENVELOPE-SHAPE Error without the {error, code} envelope',
    ]);
    expect(said(retryAfterOn429, { path: '/v2/nope', status: 429 }, '/v2')).toEqual([
      'error LIMIT-429-RETRY-AFTER 429 without Retry-After in seconds',
    ]);
  });

  it('passes the context on to every check it runs', () => {
    const ex = exchange({ path: '/v2/nope', status: 200 });
    expect(runChecks(ex, [statusIsSpecified], { basePath: '/v2' }).map((f) => f.severity)).toEqual(['error']);
    expect(runChecks(ex, [statusIsSpecified]).map((f) => f.severity)).toEqual(['warning']);
  });
});

describe('what each finding carries', () => {
  it.each<[string, Check, Given]>([
    ['status_is_specified', statusIsSpecified, { path: '/api/v1/nope', status: 200 }],
    ['status_is_specified', statusIsSpecified, { path: '/api/v1/tryons/t_1', status: 502 }],
    ['status_is_specified', statusIsSpecified, { path: '/api/v1/tryons/t_1', status: 418 }],
    ['status_is_specified', statusIsSpecified, { path: '/api/v1/tryons/t_1', status: 201 }],
    ['error_code_is_specified', errorCodeIsSpecified, { path: '/api/v1/nope', status: 400, json: err('NOT_FOUND') }],
    ['error_code_is_specified', errorCodeIsSpecified, { path: '/api/v1/nope', status: 404, json: err('X') }],
    [
      'error_code_is_specified',
      errorCodeIsSpecified,
      { method: 'POST', path: '/api/v1/tryons', status: 400, json: err('X') },
    ],
    ['error_envelope', errorEnvelope, { path: '/api/v1/nope', status: 404, text: 'x' }],
    ['error_envelope', errorEnvelope, { path: '/api/v1/nope', status: 404, json: err('X', '') }],
    [
      'json_content_type',
      jsonContentType,
      { path: '/api/v1/nope', status: 404, json: {}, headers: { 'content-type': 'x' } },
    ],
    ['json_readable', jsonReadable, { path: '/api/v1/nope', status: 404, unread: 'x' }],
    ['body_matches_spec', bodyMatchesSpec, { path: '/api/v1/tryons/t_1', status: 200, json: {} }],
    ['retry_after_on_429', retryAfterOn429, { path: '/api/v1/nope', status: 429 }],
  ])('%s names itself on its finding', (name, check, g) => {
    const found = check(exchange(g));
    expect(found.length).toBeGreaterThan(0);
    for (const f of found) expect(f.check).toBe(name);
  });

  it('names the statuses and codes it documents', () => {
    const [listed] = statusIsSpecified(exchange({ path: '/api/v1/tryons/t_1', status: 418 }));
    expect(listed?.message).toMatch(/\nDocumented: Errors: \d{3}(, \d{3})+$/);
    const [table] = errorCodeIsSpecified(exchange({ path: '/api/v1/nope', status: 400, json: err('NOT_FOUND') }));
    expect(table?.message).toBe('Received: 400 NOT_FOUND\nDocumented: 404 NOT_FOUND');
    const [open] = errorCodeIsSpecified(
      exchange({ method: 'POST', path: '/api/v1/tryons', status: 400, json: err('X') }),
    );
    expect(open?.message).toMatch(/^Received: 400 X\nDocumented: 400 [A-Z_]+(, [A-Z_]+)+$/);
  });
});

describe('the edges of each rule', () => {
  it.each<[string, Check, Given, string[]]>([
    [
      'OPTIONS answered 500: recorded only',
      statusIsSpecified,
      { method: 'OPTIONS', path: '/api/v1/nope', status: 500 },
      [`warning ${unknownPath}`],
    ],
    [
      'HEAD answered 300',
      statusIsSpecified,
      { method: 'HEAD', path: '/api/v1/nope', status: 300 },
      [`warning ${unknownPath}`],
    ],
    [
      'a 300 to a read is judged against the error list',
      statusIsSpecified,
      { path: '/api/v1/tryons/t_1', status: 300 },
      ['error GET-ERROR-LIST 300 is not a status the spec gives for getTryOn'],
    ],
    [
      'a success that carries a table code',
      errorCodeIsSpecified,
      { path: '/api/v1/tryons/t_1', status: 200, json: err('NOT_FOUND') },
      [],
    ],
    [
      'a result image’s 401 with another code (it needs no key)',
      errorCodeIsSpecified,
      { path: '/i/r.png', status: 401, json: err('NO_KEY') },
      [],
    ],
  ])('%s', (_name, check, g, want) => {
    expect(said(check, g)).toEqual(want);
  });

  it('shows a code of exactly 100 characters whole', () => {
    const code = 'X'.repeat(100);
    const [f] = errorCodeIsSpecified(exchange({ path: '/api/v1/nope', status: 404, json: err(code) }));
    expect(f?.message).toBe(`Received: 404 ${code}\nDocumented: 404 NOT_FOUND`);
  });

  it('keeps result images outside {base_url} even when the base URL is the host itself', () => {
    expect(said(errorEnvelope, { path: '/i/r.png', status: 404, text: 'gone' }, '/')).toEqual([
      'warning ERR-ENVELOPE-SHAPE Error without the {error, code} envelope',
    ]);
  });
});
