/**
 * One catalogue, kept in step (house style, after fastify's errors test): the server's apiErrors,
 * openapi.yaml's ErrorCode enum, the error table in openapi.yaml's description, and the statuses
 * under which each operation documents each code.
 */
import { describe, expect, it } from 'vitest';
import { apiErrors } from '../../src/server/api-errors.ts';
import { documentedErrors, listOperations, openapi, routingErrors } from '../../src/contract/openapi.ts';

const enumCodes = (openapi.components as { schemas: { ErrorCode: { enum: string[] } } }).schemas.ErrorCode.enum;
const description = String((openapi.info as { description: string }).description);

describe('API error catalogue', () => {
  it('has exactly the codes of the ErrorCode enum', () => {
    expect(Object.keys(apiErrors).sort()).toEqual([...enumCodes].sort());
  });

  it.each(Object.entries(apiErrors))('%s has the status openapi.yaml documents it with', (code, { status }) => {
    const documented = [...listOperations().flatMap((op) => documentedErrors(op)), ...routingErrors()].filter(
      (e) => e.code === code,
    );
    expect(documented.length).toBeGreaterThan(0);
    expect(new Set(documented.map((e) => e.status))).toEqual(new Set([status]));
  });

  it.each(Object.entries(apiErrors))('%s is in the error table of the docs with its status', (code, { status }) => {
    expect(description).toMatch(new RegExp(`\\| ${status} \\| \`${code}\` \\|`));
  });
});
