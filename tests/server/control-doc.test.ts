/** openapi-control.yaml describes the test-control extension the reference server really offers. */
import { readFileSync } from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations, parseOpenApi } from '../../src/contract/openapi.ts';
import { SchemaBook, responseSchemaPointer } from '../../src/contract/response-schemas.ts';
import { startHarness, type Harness } from './harness.ts';

const doc = parseOpenApi(readFileSync(new URL('../../openapi-control.yaml', import.meta.url), 'utf8'));
const book = new SchemaBook(doc);
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ gradeClients: true });
});
afterAll(async () => h?.close());

describe('openapi-control.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? 'valid' : compileErrors(result)).toBe('valid');
  });

  it('matches what the server answers, operation by operation', async () => {
    const { accountId } = await h.newAccount();
    const bodies: Record<string, unknown> = {
      setCredits: { credits: 3 },
      setLimits: { startsPerMinute: 100 },
      advanceClock: { seconds: 1 },
      setNameAnswers: { addresses: ['10.0.0.5', '192.0.2.10'] },
    };
    const operations = listOperations(doc);
    expect(operations.map((o) => o.operationId)).toEqual([
      'createAccount',
      'rotateKey',
      'revokeKey',
      'setCredits',
      'setLimits',
      'advanceClock',
      'setNameAnswers',
      'getSettings',
      'getClientGrade',
      'getHealth',
      'getReadiness',
    ]);
    for (const op of operations) {
      const path = op.path.replace('{accountId}', accountId).replace('{name}', 'img-doc.test');
      // A path with its own server (health and readiness) is at the root, without the control token.
      const atRoot = Array.isArray((doc.paths as Record<string, { servers?: unknown }>)[op.path]?.servers);
      const res = atRoot
        ? await h.call(op.method.toUpperCase(), path)
        : await h.control(op.method.toUpperCase(), path, bodies[op.operationId]);
      expect(res.status, op.operationId).toBe(200);
      expect(
        book.validate(responseSchemaPointer(op.operationId, 200, 'application/json', doc)!, res.json),
        op.operationId,
      ).toEqual([]);
    }
  });

  it('refuses a wrong control token with the error envelope', async () => {
    const res = await h.call('GET', '/_control/settings', { key: 'not-the-token' });
    expect({ status: res.status, code: res.json.code }).toEqual({ status: 401, code: 'INVALID_API_KEY' });
  });

  it('does not exist when the server has no control token', async () => {
    const bare = await startHarness({ control: false });
    try {
      const res = await bare.call('GET', '/_control/settings');
      expect(res.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
