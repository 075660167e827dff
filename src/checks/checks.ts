/**
 * Checks applied to every exchange: plain functions over one exchange that return findings. They judge
 * by the spec's words only (spec: Endpoints, Errors, Limits, Resources): an `error` quotes the sentence
 * it breaks; where the spec leaves the answer open, the finding is a `warning` that never fails a target.
 * openapi.yaml's implementation-defined codes are examples, not rules.
 */
import type { Answered } from '../client/exchange.ts';
import { maxJsonBytes, maxJsonDepth, showJson } from '../shared/json-bounds.ts';
import type { Operation } from '../contract/openapi.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { finding, type Finding } from './finding.ts';
import { apiPrefix, isKnownPath, isUnderBaseUrl, operationOf, templateOperationOf } from '../contract/operation-of.ts';
import { bodyProblems } from './spec-bodies.ts';
import { soleCodeOwed } from './code-conditions.ts';
import { codeRequirement, errorsTable, ourChoice, soleCodeOf, specAnswers, type SpecAnswers } from './spec-answers.ts';

/** What a check knows of the run besides the exchange. */
export interface CheckContext {
  /** The path of the run's base URL ("All paths are relative to {base_url}"); default `/api/v1`. */
  readonly basePath?: string;
}

export type Check = (exchange: Answered, context?: CheckContext) => readonly Finding[];

/** Statuses a routing miss may get before routing decides, in an order of checks the spec leaves open. */
const beforeRouting = new Set([401, 429, 503]);

/** How an exchange is judged: as an operation of the spec, or as a routing miss. */
type Route =
  | { readonly kind: 'operation'; readonly op: Operation; readonly answers: SpecAnswers }
  | { readonly kind: 'routing'; readonly want: 404 | 405; readonly requirement: RequirementId; readonly bound: boolean }
  | { readonly kind: 'none' };

function routeOf(ex: Answered, ctx: CheckContext = {}): Route {
  const { method, url } = ex.request;
  const base = ctx.basePath ?? apiPrefix;
  const op = operationOf(method, url, base);
  if (op) {
    const answers = specAnswers(op.operationId);
    return answers ? { kind: 'operation', op, answers } : { kind: 'none' };
  }
  const known = isKnownPath(url, base);
  const want = known ? 405 : 404;
  // GET /tryons/sync may be read as GET /tryons/{id} of try-on "sync": either answer is the target's choice.
  const alt = templateOperationOf(method, url, base);
  const altAnswers = alt ? specAnswers(alt.operationId) : undefined;
  if (alt && altAnswers && ex.response.status !== want) return { kind: 'operation', op: alt, answers: altAnswers };
  // "A path with no endpoint gives 404 NOT_FOUND; a method the endpoint does not accept gives 405
  // METHOD_NOT_ALLOWED" — for paths relative to {base_url}, and for methods with a meaning of their
  // own left aside (HEAD and OPTIONS are answered by many HTTP stacks before any endpoint).
  const bound = isUnderBaseUrl(url, base) && !['HEAD', 'OPTIONS'].includes(method.toUpperCase());
  return { kind: 'routing', want, requirement: known ? 'ROUTING-WRONG-METHOD-405' : 'ROUTING-UNKNOWN-PATH-404', bound };
}

const codeOf = (ex: Answered): string | undefined => {
  const code = (ex.response.json as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** The status and code of an answer for a finding; a target's code is cut at 100 characters. */
const said = (ex: Answered): string => {
  const code = codeOf(ex);
  return `${ex.response.status}${code === undefined ? '' : ` ${code.length > 100 ? `${code.slice(0, 100)}…` : code}`}`;
};

/**
 * Whether error answers of this exchange must have the spec's shape ("All error responses share the
 * shape described under Errors").
 */
function underBaseUrl(ex: Answered, route: Route, ctx: CheckContext = {}): boolean {
  if (route.kind === 'operation') return route.answers.underBaseUrl;
  return isUnderBaseUrl(ex.request.url, ctx.basePath ?? apiPrefix);
}

/**
 * The status is one the spec gives the operation: a success status of its "Response" line, or a
 * status of its "Errors:" line. A 2xx, 1xx, 3xx or 5xx it does not give is an error; an unlisted
 * 4xx is recorded, since a case the spec leaves open may get it (a wrong Content-Type, a key reused
 * with a different body). Routing misses get 404 or 405.
 */
export const statusIsSpecified: Check = (ex, ctx = {}) => {
  const status = ex.response.status;
  const route = routeOf(ex, ctx);
  if (route.kind === 'none') return [];
  if (route.kind === 'routing') {
    if (status === route.want) return [];
    const want =
      route.want === 404
        ? '404 NOT_FOUND ("A path with no endpoint gives 404 NOT_FOUND")'
        : '405 METHOD_NOT_ALLOWED ("a method the endpoint does not accept gives 405 METHOD_NOT_ALLOWED")';
    // The order of checks is open: a key, rate or availability check may answer before routing does.
    if (beforeRouting.has(status)) return [];
    // A HEAD or OPTIONS the target answers (HEAD like GET, OPTIONS for CORS) is a method it accepts.
    if (['HEAD', 'OPTIONS'].includes(ex.request.method.toUpperCase()) && status >= 200 && status < 300) return [];
    return [
      finding(
        'status_is_specified',
        route.requirement,
        'Unexpected status for a route with no such endpoint or method',
        said(ex),
        want,
        ex.seq,
        route.bound ? 'error' : 'warning',
      ),
    ];
  }
  const { op, answers } = route;
  if (status >= 400) {
    if (!answers.errors || answers.errors.has(status)) return [];
    const listed = [...answers.errors.keys()].join(', ');
    if (status >= 500) {
      return [
        finding(
          'status_is_specified',
          answers.errorListRequirement,
          `${status} is not a status the spec lists for ${op.operationId}`,
          said(ex),
          `Errors: ${listed}`,
          ex.seq,
        ),
      ];
    }
    const ours = ourChoice(op, status, codeOf(ex)) ? ' (the reference server makes the same choice)' : '';
    return [
      finding(
        'status_is_specified',
        answers.errorListRequirement,
        `An answer the spec does not list, recorded: a case it leaves open may get it${ours}`,
        said(ex),
        `Errors: ${listed}`,
        ex.seq,
        'warning',
      ),
    ];
  }
  if (!answers.success || answers.success.includes(status)) return [];
  // A sync answer still pending is the 202 case ("202 | still working when the wait ends").
  const pending = (ex.response.json as { status?: unknown } | undefined)?.status === 'pending';
  const success: RequirementId =
    op.operationId === 'createTryOnSync' && pending ? 'SYNC-202-STILL-PENDING' : answers.successRequirement;
  const requirement = status >= 200 && status < 300 ? success : answers.errorListRequirement;
  return [
    finding(
      'status_is_specified',
      requirement,
      `${status} is not a status the spec gives for ${op.operationId}`,
      said(ex),
      `success: ${answers.success.join(' or ')}; Errors: ${[...(answers.errors?.keys() ?? [])].join(', ')}`,
      ex.seq,
    ),
  ];
};

/**
 * The error code is one the spec gives for that status (spec: Errors). Binding where the table gives a
 * status one code, the operation lists it, and the exchange shows that code's case (code-conditions.ts:
 * "A missing, malformed or revoked key gives 401 with code INVALID_API_KEY"; a 413 owes IMAGE_TOO_LARGE
 * only for an image over 4 MB). Recorded only: another code on a 400 or 422, where the spec leaves body
 * and idempotency errors open, and on a 402, 403 or 413 whose case the exchange does not show.
 */
export const errorCodeIsSpecified: Check = (ex, ctx = {}) => {
  const status = ex.response.status;
  const code = codeOf(ex);
  if (status < 400 || code === undefined) return [];
  const route = routeOf(ex, ctx);
  if (route.kind === 'none' || !underBaseUrl(ex, route, ctx)) return [];
  const tableStatus = errorsTable.get(code);
  if (tableStatus !== undefined && tableStatus !== status) {
    return [
      finding(
        'error_code_is_specified',
        codeRequirement(code),
        `${code} with a status other than the Errors table's`,
        said(ex),
        `${tableStatus} ${code}`,
        ex.seq,
      ),
    ];
  }
  const sole = soleCodeOf(status);
  const soleBreak = (): Finding[] =>
    sole === undefined || sole === code
      ? []
      : [
          finding(
            'error_code_is_specified',
            codeRequirement(sole),
            `${status} with a code other than the spec's`,
            said(ex),
            `${status} ${sole}`,
            ex.seq,
          ),
        ];
  if (route.kind === 'routing')
    return route.bound && (status === route.want || beforeRouting.has(status)) ? soleBreak() : [];
  const { op, answers } = route;
  if (!answers.errors) {
    // GET /account: its errors are "not shown", but a key and a rate limit mean the same everywhere.
    return status === 401 || status === 429 ? soleBreak() : [];
  }
  const listed = answers.errors.get(status);
  if (listed === undefined || listed.includes(code)) return [];
  if (sole !== undefined && soleCodeOwed(ex)) return soleBreak();
  const ours = ourChoice(op, status, code) ? ' (the reference server makes the same choice)' : '';
  return [
    finding(
      'error_code_is_specified',
      answers.errorListRequirement,
      sole === undefined
        ? `A ${status} code the spec does not list, recorded: a case it leaves open may get it${ours}`
        : `A ${status} code other than ${sole}, recorded: the request shows no case of ${sole}${ours}`,
      said(ex),
      `${status} ${listed.join(', ')}`,
      ex.seq,
      'warning',
    ),
  ];
};

/**
 * "Every error response is JSON of the shape { "error": string, "code": string }", and "`error` is
 * human-readable" (so not empty). Binding for paths under {base_url}; recorded for result images,
 * which the spec places outside it and says nothing of their errors.
 */
export const errorEnvelope: Check = (ex, ctx = {}) => {
  const status = ex.response.status;
  if (status < 400 || ex.request.method.toUpperCase() === 'HEAD') return [];
  const route = routeOf(ex, ctx);
  const severity = underBaseUrl(ex, route, ctx) ? 'error' : 'warning';
  // A body past the runner's bounds is not read, so not judged (`jsonReadable` records it).
  if (ex.response.jsonUnread !== undefined) return [];
  const body = ex.response.json as { error?: unknown; code?: unknown } | undefined;
  if (
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body) ||
    typeof body.error !== 'string' ||
    typeof body.code !== 'string'
  ) {
    return [
      finding(
        'error_envelope',
        'ERR-ENVELOPE-SHAPE',
        'Error without the {error, code} envelope',
        ex.response.text.slice(0, 200) || '(empty or non-JSON body)',
        '{"error": string, "code": string}',
        ex.seq,
        severity,
      ),
    ];
  }
  if (body.error.trim().length === 0) {
    return [
      finding(
        'error_envelope',
        'ERR-ERROR-HUMAN-READABLE',
        'Error text is empty',
        showJson(body.error),
        '"`error` is human-readable"',
        ex.seq,
        severity,
      ),
    ];
  }
  return [];
};

/**
 * JSON answers say so in their Content-Type. The spec never names the header ("is JSON of the
 * shape …"), so a JSON body under another Content-Type is recorded, not failed.
 */
export const jsonContentType: Check = (ex, ctx = {}) => {
  if (ex.request.method.toUpperCase() === 'HEAD' || ex.response.json === undefined) return [];
  const type = ex.response.headers['content-type'] ?? '';
  if (/^application\/([\w.+-]*\+)?json\b/i.test(type)) return [];
  const route = routeOf(ex, ctx);
  const requirement: RequirementId =
    ex.response.status >= 400 || route.kind !== 'operation' ? 'ERR-ENVELOPE-SHAPE' : route.answers.successRequirement;
  return [
    finding(
      'json_content_type',
      requirement,
      'A JSON body under another Content-Type, recorded',
      type || '(no Content-Type)',
      'application/json (not named by the spec)',
      ex.seq,
      'warning',
    ),
  ];
};

/**
 * A success body has the fields the spec gives it, with the spec's types and values (Resources:
 * Try-on, Uploaded image; Endpoints). Fields the spec does not list are allowed ("the rules for
 * adding or changing fields: not shown"). GET /account's body shape is "not shown": never judged.
 */
export const bodyMatchesSpec: Check = (ex, ctx = {}) => {
  const status = ex.response.status;
  if (
    status < 200 ||
    status >= 300 ||
    ex.request.method.toUpperCase() === 'HEAD' ||
    ex.response.jsonUnread !== undefined
  )
    return [];
  const route = routeOf(ex, ctx);
  if (route.kind !== 'operation') return [];
  const problems = bodyProblems(route.op.operationId, status, ex.response.json, ex.response.text);
  return problems.map((p) =>
    finding(
      'body_matches_spec',
      p.requirement,
      `Body of ${route.op.operationId} ${status}: ${p.title}`,
      p.received,
      p.documented,
      ex.seq,
    ),
  );
};

/**
 * A body the runner does not read (JSON nested deeper, or larger, than its bounds: json-bounds.ts)
 * is recorded, never judged: the spec sets no bound on either, and the runner cannot judge what it
 * did not read. Tests that needed the body stop on what they miss.
 */
export const jsonReadable: Check = (ex, ctx = {}) => {
  const unread = ex.response.jsonUnread;
  if (unread === undefined) return [];
  const route = routeOf(ex, ctx);
  const error = ex.response.status >= 400 || route.kind !== 'operation';
  const requirement: RequirementId = error ? 'ERR-ENVELOPE-SHAPE' : route.answers.successRequirement;
  const documented = `JSON within ${maxJsonDepth} levels and ${maxJsonBytes} bytes, the runner's bounds (the spec sets none)`;
  return [
    finding(
      'json_readable',
      requirement,
      'A body the runner does not read, recorded',
      unread,
      documented,
      ex.seq,
      'warning',
    ),
  ];
};

/**
 * "Over a rate limit the response is 429 RATE_LIMITED with a Retry-After header in seconds"
 * (delay-seconds: digits).
 */
export const retryAfterOn429: Check = (ex, ctx = {}) => {
  if (ex.response.status !== 429) return [];
  const value = ex.response.headers['retry-after'];
  if (value !== undefined && /^\d+$/.test(value.trim())) return [];
  const route = routeOf(ex, ctx);
  return [
    finding(
      'retry_after_on_429',
      'LIMIT-429-RETRY-AFTER',
      '429 without Retry-After in seconds',
      value ?? '(no Retry-After)',
      'Retry-After: <seconds>',
      ex.seq,
      underBaseUrl(ex, route, ctx) ? 'error' : 'warning',
    ),
  ];
};

export const allChecks: readonly Check[] = [
  statusIsSpecified,
  errorCodeIsSpecified,
  errorEnvelope,
  jsonContentType,
  jsonReadable,
  bodyMatchesSpec,
  retryAfterOn429,
];

/** Runs every check on one exchange. */
export function runChecks(ex: Answered, checks: readonly Check[] = allChecks, context: CheckContext = {}): Finding[] {
  return checks.flatMap((c) => c(ex, context));
}
