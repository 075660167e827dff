/**
 * Checks applied to every exchange with a target: plain named functions over one exchange that
 * return a finding or nothing (after schemathesis's `checks.py`). Spec: Errors, Limits, Endpoints.
 */
import type { Answered } from '../client/exchange.ts';
import { documentedErrors, routingErrors } from '../spec/openapi.ts';
import { SchemaBook, documentedStatuses, responseSchemaPointer } from '../spec/response-schemas.ts';
import type { RequirementId } from '../spec/requirements.ts';
import { finding, type Finding } from './finding.ts';
import { isKnownPath, operationOf } from './operation-of.ts';

export type Check = (exchange: Answered) => Finding | undefined;

const book = new SchemaBook();

/** The requirement that lists each operation's answers. */
const errorListOf: Readonly<Record<string, RequirementId>> = {
  createTryOn: 'CREATE-ERROR-LIST',
  createTryOnSync: 'SYNC-SAME-CONTRACT-AS-CREATE',
  getTryOn: 'GET-ERROR-LIST',
  uploadImage: 'UPLOAD-ERROR-LIST',
  getAccount: 'ACCOUNT-GET-SHAPE-IMPL-DEFINED',
  getResultImage: 'AUTH-RESULT-URL-PUBLIC',
};

const successOf: Readonly<Record<string, RequirementId>> = {
  createTryOn: 'CREATE-ACCEPTED-IS-200',
  createTryOnSync: 'SYNC-200-ON-SUCCESS',
  getTryOn: 'GET-RESPONSE-200-BODY',
  uploadImage: 'UPLOAD-RESPONSE-200',
  getAccount: 'ACCOUNT-GET-READS-CREDITS',
  getResultImage: 'AUTH-RESULT-URL-PUBLIC',
};

function routingStatus(ex: Answered): number {
  return isKnownPath(ex.request.url) ? 405 : 404;
}

/** The status is one the operation documents (or the routing 404/405 for an undocumented route). */
export const statusIsDocumented: Check = (ex) => {
  const op = operationOf(ex.request.method, ex.request.url);
  const status = ex.response.status;
  if (!op) {
    const want = routingStatus(ex);
    return status === want
      ? undefined
      : finding('status_is_documented', want === 404 ? 'ROUTING-UNKNOWN-PATH-404' : 'ROUTING-WRONG-METHOD-405', 'Undocumented status for an unknown route', String(status), String(want), ex.seq);
  }
  const documented = documentedStatuses(op.operationId);
  return documented.includes(status)
    ? undefined
    : finding('status_is_documented', (status >= 400 ? errorListOf : successOf)[op.operationId] ?? 'ERR-ENVELOPE-SHAPE', `Undocumented status for ${op.operationId}`, String(status), documented.join(', '), ex.seq);
};

/** JSON answers say so in their Content-Type. */
export const jsonContentType: Check = (ex) => {
  const type = ex.response.headers['content-type'] ?? '';
  const op = operationOf(ex.request.method, ex.request.url);
  if (op?.operationId === 'getResultImage' && ex.response.status === 200) return undefined;
  if (ex.request.method === 'HEAD') return undefined;
  return /^application\/json\b/i.test(type)
    ? undefined
    : finding('json_content_type', ex.response.status >= 400 ? 'ERR-ENVELOPE-SHAPE' : 'GET-RESPONSE-200-BODY', 'Response is not JSON', type || '(no Content-Type)', 'application/json', ex.seq);
};

/** Errors use `{error, code}` with a code from the operation's documented set for that status. */
export const errorEnvelope: Check = (ex) => {
  const status = ex.response.status;
  if (status < 400 || ex.request.method === 'HEAD') return undefined;
  const body = ex.response.json as { error?: unknown; code?: unknown } | undefined;
  if (typeof body !== 'object' || body === null || typeof body.error !== 'string' || body.error.length === 0 || typeof body.code !== 'string') {
    return finding('error_envelope', 'ERR-ENVELOPE-SHAPE', 'Error without the {error, code} envelope', ex.response.text.slice(0, 200) || '(empty body)', '{"error": string, "code": string}', ex.seq);
  }
  const op = operationOf(ex.request.method, ex.request.url);
  const allowed = (op ? documentedErrors(op) : routingErrors()).filter((e) => e.status === status).map((e) => e.code);
  if (allowed.length === 0) return undefined; // the status check reports this one
  return allowed.includes(body.code)
    ? undefined
    : finding('error_envelope', (op ? errorListOf[op.operationId] : undefined) ?? 'ERR-ENVELOPE-SHAPE', `Undocumented error code for ${status}`, body.code, allowed.join(', '), ex.seq);
};

/** The body matches the documented schema for the operation, status and media type. */
export const bodyMatchesSchema: Check = (ex) => {
  const op = operationOf(ex.request.method, ex.request.url);
  if (!op || ex.request.method === 'HEAD' || ex.response.json === undefined) return undefined;
  const pointer = responseSchemaPointer(op.operationId, ex.response.status);
  if (!pointer) return undefined;
  const problems = book.validate(pointer, ex.response.json);
  if (problems.length === 0) return undefined;
  const requirement: RequirementId = ex.response.status >= 400 ? 'ERR-ENVELOPE-SHAPE' : (successOf[op.operationId] ?? 'ERR-ENVELOPE-SHAPE');
  return finding('body_matches_schema', requirement, `Body does not match the ${op.operationId} ${ex.response.status} schema`, problems.map((p) => `${p.path} ${p.message}`).join('; '), pointer, ex.seq);
};

/** A 429 carries Retry-After in whole seconds. */
export const retryAfterOn429: Check = (ex) => {
  if (ex.response.status !== 429) return undefined;
  const value = ex.response.headers['retry-after'];
  return value !== undefined && /^\d+$/.test(value.trim())
    ? undefined
    : finding('retry_after_on_429', 'LIMIT-429-RETRY-AFTER', '429 without an integer Retry-After', value ?? '(no Retry-After)', 'Retry-After: <seconds>', ex.seq);
};

export const allChecks: readonly Check[] = [statusIsDocumented, jsonContentType, errorEnvelope, bodyMatchesSchema, retryAfterOn429];

/** Runs every check on one exchange. */
export function runChecks(ex: Answered, checks: readonly Check[] = allChecks): Finding[] {
  return checks.map((c) => c(ex)).filter((f): f is Finding => f !== undefined);
}
