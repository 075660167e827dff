/**
 * Each per-exchange check on the branches the scenario rows leave open, part two: the envelope, the
 * Content-Type, a body the runner did not read, Retry-After, and a base URL with another path.
 */
import { describe, expect, it } from 'vitest';
import {
  bodyMatchesSpec,
  errorEnvelope,
  jsonContentType,
  jsonReadable,
  retryAfterOn429,
  runChecks,
  statusIsSpecified,
} from './checks.ts';
import { exchange, said, err, unknownPath, type Given } from './__fixtures__/given-exchange.ts';

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
