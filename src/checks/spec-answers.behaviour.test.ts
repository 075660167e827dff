/**
 * What spec-answers.ts says of each operation beyond its error list: the success statuses the spec's
 * "Response" lines give, the requirements each answer proves, which paths lie under {base_url}, and
 * which answers are only the reference server's own (implementation-defined) choice.
 */
import { describe, expect, it } from 'vitest';
import { listOperations } from '../contract/openapi.ts';
import { ourChoice, soleCodeOf, specAnswers } from './spec-answers.ts';

const op = (operationId: string) => listOperations().find((o) => o.operationId === operationId);

describe('specAnswers: success statuses and requirements', () => {
  it.each<[string, readonly number[] | undefined, string, string, boolean]>([
    // "Response (success): status 200"
    ['createTryOn', [200], 'CREATE-ACCEPTED-IS-200', 'CREATE-ERROR-LIST', true],
    // "Responses: | 200 | … | 202 | still working when the wait ends"
    ['createTryOnSync', [200, 202], 'SYNC-200-ON-SUCCESS', 'SYNC-SAME-CONTRACT-AS-CREATE', true],
    ['getTryOn', [200], 'GET-RESPONSE-200-BODY', 'GET-ERROR-LIST', true],
    ['uploadImage', [200], 'UPLOAD-RESPONSE-200', 'UPLOAD-ERROR-LIST', true],
    // "response body shape, errors and limits of this endpoint: not shown"
    ['getAccount', undefined, 'ACCOUNT-GET-READS-CREDITS', 'ACCOUNT-GET-SHAPE-IMPL-DEFINED', true],
    // "Public, needs no key, served from {host} under a path beginning /i/"
    ['getResultImage', undefined, 'AUTH-RESULT-URL-PUBLIC', 'RES-RESULT-URL-VALID-24H', false],
  ])('%s: success %j, proving %s and %s; under {base_url}: %s', (id, success, ok, list, underBaseUrl) => {
    const a = specAnswers(id);
    expect(a?.operationId).toBe(id);
    expect(a?.success).toEqual(success);
    expect([a?.successRequirement, a?.errorListRequirement]).toEqual([ok, list]);
    expect(a?.underBaseUrl).toBe(underBaseUrl);
  });

  it('knows nothing of an operation the contract does not have', () => {
    expect(specAnswers('deleteTryOn')).toBeUndefined();
  });

  it('gives a status that the Errors table lists once its code, and none to one listed often or never', () => {
    expect([401, 402, 403, 404, 405, 413, 429, 500, 502, 503].map(soleCodeOf)).toEqual([
      'INVALID_API_KEY',
      'INSUFFICIENT_CREDITS',
      'CONSENT_REQUIRED',
      'NOT_FOUND',
      'METHOD_NOT_ALLOWED',
      'IMAGE_TOO_LARGE',
      'RATE_LIMITED',
      'INTERNAL_ERROR',
      'START_FAILED',
      'UNAVAILABLE',
    ]);
    expect([400, 422, 409, 418].map(soleCodeOf)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('ourChoice: an answer that is only the reference server’s', () => {
  it('is true for a code openapi.yaml marks implementation-defined, at its status only', () => {
    expect(ourChoice(op('createTryOn'), 409, 'IDEMPOTENCY_KEY_IN_USE')).toBe(true);
    expect(ourChoice(op('createTryOn'), 400, 'IDEMPOTENCY_KEY_IN_USE')).toBe(false);
    expect(ourChoice(op('uploadImage'), 415, 'UNSUPPORTED_MEDIA_TYPE')).toBe(true);
  });

  it('is false for a code the spec itself gives, and for a code nobody documents', () => {
    expect(ourChoice(op('createTryOn'), 402, 'INSUFFICIENT_CREDITS')).toBe(false);
    expect(ourChoice(op('createTryOn'), 400, 'SOMETHING_ELSE')).toBe(false);
    expect(ourChoice(op('createTryOn'), 400, undefined)).toBe(false);
  });

  it('reads the routing answers when there is no operation: the spec gives them, so never ours', () => {
    expect(ourChoice(undefined, 404, 'NOT_FOUND')).toBe(false);
    expect(ourChoice(undefined, 409, 'IDEMPOTENCY_KEY_IN_USE')).toBe(false);
  });
});
