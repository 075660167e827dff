/**
 * The suite's per-exchange checks (src/checks) on every exchange of the traffic, unchanged: their
 * error findings fail a requirement as in a run, their warnings are recorded. Which requirements one
 * exchange exercised is what the checks could have failed on it (`judgedBy`), so a rule the traffic
 * never showed stays "not exercised".
 */
import { allChecks, runChecks } from '../../checks/checks.ts';
import { soleCodeOwed } from '../../checks/code-conditions.ts';
import { specAnswers } from '../../checks/spec-answers.ts';
import { isKnownPath, isUnderBaseUrl } from '../../contract/operation-of.ts';
import type { RequirementId } from '../../contract/requirements.ts';
import type { TrafficView } from '../traffic-view.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'per-exchange checks';

/** The requirements a success body's rules judge (spec-bodies.ts), by operation and status. */
function bodyRequirements(v: TrafficView): RequirementId[] {
  const status = v.tryOn?.status;
  const byStatus: RequirementId[] =
    status === 'success'
      ? ['RES-RESULT-URL-HOST-AND-PATH']
      : status === 'failed'
        ? ['RES-RESULT-URL-NULL-UNLESS-SUCCESS', 'RES-TRYON-MESSAGE-ON-FAILED']
        : status === 'pending'
          ? ['RES-RESULT-URL-NULL-UNLESS-SUCCESS']
          : [];
  const started: RequirementId[] = [
    'RES-TRYON-ID-RETURNED-ON-CREATE',
    'RES-POLL-URL-VALUE',
    'RES-RESULT-URL-ABSENT-FROM-CREATE',
  ];
  if (v.op === 'createTryOn' && v.status === 200)
    return ['CREATE-ACCEPTED-IS-200', 'CREATE-RESPONSE-STATUS-PENDING', ...started];
  if (v.op === 'createTryOnSync' && v.status === 202) return ['SYNC-202-STILL-PENDING', ...started];
  if (v.op === 'createTryOnSync' && v.status === 200)
    return ['SYNC-200-ON-SUCCESS', 'RES-POLL-URL-ONLY-CREATE-AND-SYNC-202', ...byStatus];
  if (v.op === 'getTryOn' && v.status === 200)
    return ['GET-RESPONSE-200-BODY', 'RES-TRYON-STATUS-VALUES', 'RES-POLL-URL-ONLY-CREATE-AND-SYNC-202', ...byStatus];
  if (v.op === 'uploadImage' && v.status === 200)
    return ['UPLOAD-RESPONSE-200', 'RES-IMAGE-ID-PREFIX', 'RES-IMAGE-EXPIRES-AT-24H'];
  return [];
}

/** The error requirements the checks judge on an error answer: envelope, Retry-After, sole codes, lists. */
function errorRequirements(v: TrafficView, basePath: string): RequirementId[] {
  const { exchange: ex, status } = v;
  const method = ex.request.method.toUpperCase();
  if (status < 400 || method === 'HEAD') return [];
  const under = isUnderBaseUrl(ex.request.url, basePath);
  if (!under) return [];
  const body = ex.response.json as { error?: unknown; code?: unknown } | undefined;
  const out: RequirementId[] = [];
  if (ex.response.jsonUnread === undefined) {
    out.push('ERR-ENVELOPE-SHAPE');
    if (typeof body?.error === 'string') out.push('ERR-ERROR-HUMAN-READABLE');
  }
  if (status === 429) out.push('LIMIT-429-RETRY-AFTER');
  const coded = typeof body?.code === 'string';
  const answers = v.op !== undefined && v.op !== 'resultImage' ? specAnswers(v.op) : undefined;
  if (answers !== undefined) {
    if (answers.errors !== undefined) out.push(answers.errorListRequirement);
    if (coded && (status === 401 || status === 429 || soleCodeOwed(ex))) {
      const sole = soleCode[status];
      if (sole !== undefined) out.push(sole);
    }
    return out;
  }
  // A routing miss under {base_url}: 404 for a path with no endpoint, 405 for a method it does not accept.
  if (method === 'OPTIONS') return out;
  const known = isKnownPath(ex.request.url, basePath);
  const want = known ? 405 : 404;
  if (status === want) {
    out.push(known ? 'ROUTING-WRONG-METHOD-405' : 'ROUTING-UNKNOWN-PATH-404');
    if (coded) out.push(known ? 'ERR-METHOD-NOT-ALLOWED' : 'ERR-NOT-FOUND');
  } else if (![401, 429, 503].includes(status))
    out.push(known ? 'ROUTING-WRONG-METHOD-405' : 'ROUTING-UNKNOWN-PATH-404');
  return out;
}

/** The requirement of the one code the Errors table gives a status (checks: `soleCodeOf`, `codeRequirement`). */
const soleCode: Readonly<Record<number, RequirementId>> = {
  401: 'ERR-INVALID-API-KEY',
  402: 'ERR-INSUFFICIENT-CREDITS',
  403: 'ERR-CONSENT-REQUIRED',
  404: 'ERR-NOT-FOUND',
  405: 'ERR-METHOD-NOT-ALLOWED',
  413: 'ERR-IMAGE-TOO-LARGE',
  429: 'ERR-RATE-LIMITED',
  500: 'ERR-INTERNAL-ERROR',
  502: 'ERR-START-FAILED',
  503: 'ERR-UNAVAILABLE',
};

/** The requirements the checks could have failed on this exchange. */
export function judgedBy(v: TrafficView, basePath: string): RequirementId[] {
  const success = v.status >= 200 && v.status < 300 && v.exchange.response.jsonUnread === undefined;
  return [...new Set([...(success ? bodyRequirements(v) : []), ...errorRequirements(v, basePath)])];
}

/** The per-exchange checks as a passive rule. */
export function exchangeChecks(setup: RuleSetup): PassiveRule {
  const { ledger, basePath } = setup;
  const context = { basePath };
  return {
    family,
    notKept: () => 0,
    observe(v) {
      const findings = runChecks(v.exchange, allChecks, context);
      const failed = new Set<RequirementId>();
      for (const f of findings) {
        ledger.found(family, f, [v.te]);
        if (f.severity === 'error') failed.add(f.requirement);
      }
      for (const id of judgedBy(v, basePath))
        if (!failed.has(id) && !findings.some((f) => f.requirement === id)) ledger.judged(family, id, v.te);
    },
  };
}

/** Every requirement this family can judge, with what the traffic must show. */
export const exchangeCheckRequirements: ReadonlyArray<readonly [RequirementId, string]> = [
  ['ERR-ENVELOPE-SHAPE', 'an error answer under the base path'],
  ['ERR-ERROR-HUMAN-READABLE', 'an error answer with an `error` text'],
  ['LIMIT-429-RETRY-AFTER', 'a 429 answer'],
  ['CREATE-ACCEPTED-IS-200', 'an accepted start (200 from POST /tryons)'],
  ['CREATE-RESPONSE-STATUS-PENDING', 'an accepted start'],
  ['RES-TRYON-ID-RETURNED-ON-CREATE', 'an accepted start'],
  ['RES-POLL-URL-VALUE', 'an accepted start or a sync 202'],
  ['RES-RESULT-URL-ABSENT-FROM-CREATE', 'an accepted start or a sync 202'],
  ['SYNC-202-STILL-PENDING', 'a 202 from POST /tryons/sync'],
  ['SYNC-200-ON-SUCCESS', 'a 200 from POST /tryons/sync'],
  ['GET-RESPONSE-200-BODY', 'a 200 from GET /tryons/{id}'],
  ['RES-TRYON-STATUS-VALUES', 'a 200 from GET /tryons/{id}'],
  ['RES-POLL-URL-ONLY-CREATE-AND-SYNC-202', 'a try-on read or a sync 200'],
  ['RES-RESULT-URL-HOST-AND-PATH', 'a try-on read as success'],
  ['RES-RESULT-URL-NULL-UNLESS-SUCCESS', 'a try-on read as pending or failed'],
  ['RES-TRYON-MESSAGE-ON-FAILED', 'a try-on read as failed'],
  ['UPLOAD-RESPONSE-200', 'a 200 from POST /images'],
  ['RES-IMAGE-ID-PREFIX', 'a 200 from POST /images'],
  ['RES-IMAGE-EXPIRES-AT-24H', 'a 200 from POST /images'],
  ['CREATE-ERROR-LIST', 'an error answer of POST /tryons'],
  ['SYNC-SAME-CONTRACT-AS-CREATE', 'an error answer of POST /tryons/sync'],
  ['GET-ERROR-LIST', 'an error answer of GET /tryons/{id}'],
  ['UPLOAD-ERROR-LIST', 'an error answer of POST /images'],
  ['ROUTING-UNKNOWN-PATH-404', 'a request to a path with no endpoint'],
  ['ROUTING-WRONG-METHOD-405', 'a request with a method an endpoint does not accept'],
  ...Object.values(soleCode).map((id) => [id, 'an answer with its status'] as const),
];
