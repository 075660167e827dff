/**
 * Each per-exchange check on the branches the scenario rows leave open, part one: routing misses and what
 * may answer before routing, and statuses and codes the spec does not list. Each row names the check, the
 * exchange, and the findings as "severity REQUIREMENT title".
 */
import { describe, expect, it } from 'vitest';
import { errorCodeIsSpecified, statusIsSpecified } from './checks.ts';
import { exchange, said, err, unknownPath, wrongMethod, type Given } from './__fixtures__/given-exchange.ts';

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
