/**
 * Every error code of the spec appears under exactly the operations the spec lists it for,
 * with the status the spec gives (spec: Endpoints, Errors).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentedErrors, listOperations, openapi, routingErrors } from '../../src/contract/openapi.ts';
import { paths } from '../../src/contract/paths.ts';

type Table = Record<string, Record<string, number>>;

const createErrors = {
  MISSING_IDEMPOTENCY_KEY: 400,
  INVALID_IMAGE_URL: 400,
  IMAGE_DOWNLOAD_FAILED: 400,
  UNSUPPORTED_IMAGE: 400,
  INVALID_IMAGE_ID: 400,
  INVALID_API_KEY: 401,
  INSUFFICIENT_CREDITS: 402,
  CONSENT_REQUIRED: 403,
  IMAGE_TOO_LARGE: 413,
  PERSON_PHOTO_REJECTED: 422,
  IMAGE_REJECTED: 422,
  GARMENT_REJECTED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  START_FAILED: 502,
  UNAVAILABLE: 503,
};

/** Transcribed by hand from the spec's endpoint sections; the next test proves the transcription. */
const specTable: Table = {
  'POST /tryons': createErrors,
  'POST /tryons/sync': createErrors,
  'GET /tryons/{id}': {
    INVALID_API_KEY: 401,
    NOT_FOUND: 404,
    RATE_LIMITED: 429,
    INTERNAL_ERROR: 500,
    UNAVAILABLE: 503,
  },
  'POST /images': {
    UNSUPPORTED_IMAGE: 400,
    INVALID_API_KEY: 401,
    IMAGE_TOO_LARGE: 413,
    RATE_LIMITED: 429,
    INTERNAL_ERROR: 500,
    UNAVAILABLE: 503,
  },
  // "Path parameters, headers, response body shape, errors and limits of this endpoint: not shown."
  'GET /account': {},
};

const spec = readFileSync(paths.proseSpec, 'utf8');

/** Reads `Errors: 400 A, B; 401 C; ...` from one `### METHOD /path` section of the spec. */
function errorsLine(heading: string): Record<string, number> {
  const start = spec.indexOf(`### ${heading}`);
  const section = spec.slice(start, spec.indexOf('\n### ', start + 4));
  const line = /Errors: (\d{3} [^\n]*)/.exec(section)?.[1];
  if (!line) return {};
  return Object.fromEntries(
    line
      .replace(/\s*\(meanings under Errors\)\.?$/, '')
      .replace(/\.$/, '')
      .split('; ')
      .flatMap((group) => {
        const [status, ...codes] = group.split(/[ ,]+/);
        // Parenthesised meanings ('404 NOT_FOUND (no try-on with that id …)') are prose, not codes.
        return codes.filter((c) => /^[A-Z][A-Z_]+$/.test(c)).map((code) => [code, Number(status)]);
      }),
  );
}

/** The spec's Errors table: code → status. */
function errorsTable(): Record<string, number> {
  const section = spec.slice(spec.indexOf('## Errors'), spec.indexOf('\n## Limits'));
  return Object.fromEntries([...section.matchAll(/^\| (\d{3}) \| ([A-Z_]+) \|/gm)].map((m) => [m[2], Number(m[1])]));
}

function openapiTable(includeImplementationDefined: boolean): Table {
  return Object.fromEntries(
    listOperations()
      .filter((op) => op.path !== '/i/{file}')
      .map((op) => [
        `${op.method.toUpperCase()} ${op.path}`,
        Object.fromEntries(
          documentedErrors(op)
            .filter((e) => includeImplementationDefined || !e.implementationDefined)
            .map((e) => [e.code, e.status]),
        ),
      ]),
  );
}

describe('error codes per operation', () => {
  it('transcribes the spec endpoint sections faithfully', () => {
    expect(errorsLine('POST /tryons : create try-on')).toEqual(specTable['POST /tryons']);
    expect(spec).toMatch(/### POST \/tryons\/sync[^#]*error list as `POST \/tryons`/);
    expect(errorsLine('GET /tryons/{id}')).toEqual(specTable['GET /tryons/{id}']);
    expect(errorsLine('POST /images')).toEqual(specTable['POST /images']);
    expect(errorsLine('GET /account')).toEqual({});
  });

  it('documents exactly the spec codes, with the spec status, on every operation the spec lists', () => {
    const ours = openapiTable(false);
    // GET /account: the spec shows no errors; ours are implementation-defined but use spec codes.
    const { ['GET /account']: account, ...rest } = ours;
    const { ['GET /account']: _none, ...specRest } = specTable;
    expect(rest).toEqual(specRest);
    expect(Object.keys(account ?? {}).sort()).toEqual([
      'INTERNAL_ERROR',
      'INVALID_API_KEY',
      'RATE_LIMITED',
      'UNAVAILABLE',
    ]);
  });

  it('gives every code the status of the spec Errors table, everywhere it appears', () => {
    const table = errorsTable();
    expect(Object.keys(table)).toHaveLength(18);
    const everywhere = [...listOperations().flatMap((op) => documentedErrors(op)), ...routingErrors()];
    for (const e of everywhere.filter((e) => !e.implementationDefined)) {
      expect({ code: e.code, status: e.status }).toEqual({ code: e.code, status: table[e.code] });
    }
  });

  it('documents 404 NOT_FOUND and 405 METHOD_NOT_ALLOWED for unknown paths and methods', () => {
    expect(routingErrors().map((e) => [e.status, e.code])).toEqual([
      [404, 'NOT_FOUND'],
      [405, 'METHOD_NOT_ALLOWED'],
    ]);
  });

  it('uses implementation-defined codes only where the spec names no code, never a spec code', () => {
    const specCodes = new Set(Object.keys(errorsTable()));
    const ours = listOperations()
      .flatMap((op) => documentedErrors(op))
      .filter((e) => e.implementationDefined);
    expect(ours.length).toBeGreaterThan(0);
    for (const e of ours) expect(specCodes.has(e.code), e.code).toBe(false);
  });

  it('lists every documented code in the ErrorCode enum, and nothing else', () => {
    const schemas = openapi.components as { schemas: { ErrorCode: { enum: string[] } } };
    const documented = new Set(
      [...listOperations().flatMap((op) => documentedErrors(op)), ...routingErrors()].map((e) => e.code),
    );
    expect([...documented].sort()).toEqual([...schemas.schemas.ErrorCode.enum].sort());
  });
});
