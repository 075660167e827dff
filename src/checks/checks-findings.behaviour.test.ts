/**
 * The per-exchange checks, part three: what each finding carries (requirement, severity, evidence), and
 * the edges of each rule.
 */
import { describe, expect, it } from 'vitest';
import {
  bodyMatchesSpec,
  errorCodeIsSpecified,
  errorEnvelope,
  jsonContentType,
  jsonReadable,
  retryAfterOn429,
  type Check,
  statusIsSpecified,
} from './checks.ts';
import { exchange, said, err, unknownPath, type Given } from './__fixtures__/given-exchange.ts';

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
