/**
 * What the spec's own words say each operation may answer: the success statuses of its "Response"
 * lines and the pairs of its "Errors:" line (spec: Endpoints; Errors). This, not openapi.yaml's
 * reference choices, is what the per-exchange checks hold a target to. openapi.yaml's
 * implementation-defined codes (`x-implementation-defined-codes`) are examples: `ourChoice` only
 * says whether an answer is also the reference server's, for the observation's text.
 */
import { documentedErrors, listOperations, routingErrors, type Operation } from '../contract/openapi.ts';
import type { RequirementId } from '../contract/requirements.ts';

export interface SpecAnswers {
  readonly operationId: string;
  /** 2xx statuses the spec gives; undefined where it shows none (GET /account, result images). */
  readonly success?: readonly number[];
  /** The spec's "Errors:" line, status → codes; undefined where it shows none. */
  readonly errors?: ReadonlyMap<number, readonly string[]>;
  /** The requirement a wrong success status or body breaks. */
  readonly successRequirement: RequirementId;
  /** The requirement that holds the operation to its error list. */
  readonly errorListRequirement: RequirementId;
  /** Under {base_url}: "All error responses share the shape described under Errors." */
  readonly underBaseUrl: boolean;
}

/** The spec's Errors table, code → status ("| 400 | MISSING_IDEMPOTENCY_KEY | …"); checked by spec-answers.test.ts. */
export const errorsTable: ReadonlyMap<string, number> = new Map([
  ['MISSING_IDEMPOTENCY_KEY', 400],
  ['INVALID_IMAGE_URL', 400],
  ['IMAGE_DOWNLOAD_FAILED', 400],
  ['UNSUPPORTED_IMAGE', 400],
  ['INVALID_IMAGE_ID', 400],
  ['INVALID_API_KEY', 401],
  ['INSUFFICIENT_CREDITS', 402],
  ['CONSENT_REQUIRED', 403],
  ['NOT_FOUND', 404],
  ['METHOD_NOT_ALLOWED', 405],
  ['IMAGE_TOO_LARGE', 413],
  ['PERSON_PHOTO_REJECTED', 422],
  ['IMAGE_REJECTED', 422],
  ['GARMENT_REJECTED', 422],
  ['RATE_LIMITED', 429],
  ['INTERNAL_ERROR', 500],
  ['START_FAILED', 502],
  ['UNAVAILABLE', 503],
]);

/**
 * The one code the Errors table gives a status, where it gives exactly one (401, 402, …, 503). Another
 * code with such a status is no open case: the spec leaves codes open only where 400, 409, 415 or 422 fit.
 */
export function soleCodeOf(status: number): string | undefined {
  const codes = [...errorsTable].filter(([, s]) => s === status).map(([c]) => c);
  return codes.length === 1 ? codes[0] : undefined;
}

/** The ERR-<CODE> requirement of a spec code. */
export function codeRequirement(code: string): RequirementId {
  return `ERR-${code.replaceAll('_', '-')}` as RequirementId;
}

const successOf: Readonly<Record<string, readonly number[] | undefined>> = {
  createTryOn: [200], // "Response (success): status 200"
  createTryOnSync: [200, 202], // "Responses: | 200 | … | 202 | still working when the wait ends"
  getTryOn: [200], // "Response 200 body: …"
  uploadImage: [200], // "Response 200 body: …"
  getAccount: undefined, // "response body shape, errors and limits of this endpoint: not shown"
  getResultImage: undefined, // "Public, needs no key, served from {host} under a path beginning /i/"
};

const requirementsOf: Readonly<Record<string, readonly [RequirementId, RequirementId]>> = {
  createTryOn: ['CREATE-ACCEPTED-IS-200', 'CREATE-ERROR-LIST'],
  createTryOnSync: ['SYNC-200-ON-SUCCESS', 'SYNC-SAME-CONTRACT-AS-CREATE'],
  getTryOn: ['GET-RESPONSE-200-BODY', 'GET-ERROR-LIST'],
  uploadImage: ['UPLOAD-RESPONSE-200', 'UPLOAD-ERROR-LIST'],
  getAccount: ['ACCOUNT-GET-READS-CREDITS', 'ACCOUNT-GET-SHAPE-IMPL-DEFINED'],
  getResultImage: ['AUTH-RESULT-URL-PUBLIC', 'RES-RESULT-URL-VALID-24H'],
};

/** Operations whose error list the spec shows (GET /account's and the result image's it does not). */
const withErrorList = new Set(['createTryOn', 'createTryOnSync', 'getTryOn', 'uploadImage']);

/**
 * The spec's error pairs of an operation: openapi.yaml's documented errors without its
 * implementation-defined codes (spec-answers.test.ts holds them to the spec's "Errors:" lines).
 */
function specErrors(op: Operation): Map<number, string[]> {
  const map = new Map<number, string[]>();
  for (const e of documentedErrors(op)) {
    if (e.implementationDefined) continue;
    map.set(e.status, [...(map.get(e.status) ?? []), e.code]);
  }
  return map;
}

const byOperation = new Map<string, SpecAnswers>(
  listOperations().map((op) => {
    const [successRequirement, errorListRequirement] = requirementsOf[op.operationId] ?? [
      'ERR-ENVELOPE-SHAPE',
      'ERR-ENVELOPE-SHAPE',
    ];
    const success = successOf[op.operationId];
    const answers: SpecAnswers = {
      operationId: op.operationId,
      ...(success && { success }),
      ...(withErrorList.has(op.operationId) && { errors: specErrors(op) }),
      successRequirement,
      errorListRequirement,
      underBaseUrl: !op.path.startsWith('/i/'),
    };
    return [op.operationId, answers] as const;
  }),
);

/** What the spec says an operation answers. */
export function specAnswers(operationId: string): SpecAnswers | undefined {
  return byOperation.get(operationId);
}

/** Whether openapi.yaml documents this pair as the reference server's own (implementation-defined) answer. */
export function ourChoice(op: Operation | undefined, status: number, code: string | undefined): boolean {
  const documented = op ? documentedErrors(op) : routingErrors();
  return documented.some((e) => e.status === status && e.code === code && e.implementationDefined);
}
