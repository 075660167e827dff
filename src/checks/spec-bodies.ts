/**
 * The success bodies as the spec's words give them (spec: Resources and their fields; Endpoints),
 * field by field, each rule with the requirement it proves. Only the spec's fields, types and values
 * bind: a field the spec does not list is allowed ("the rules for adding or changing fields: not
 * shown"). openapi.yaml's schemas are stricter in places (our reference choices); they are not used here.
 */
import { showJson } from '../shared/json-bounds.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { pathOf } from '../contract/operation-of.ts';

export interface BodyProblem {
  readonly requirement: RequirementId;
  readonly title: string;
  readonly received: string;
  readonly documented: string;
}

type Body = Record<string, unknown>;

/** A field's value for a finding: bounded in length, and safe at any depth of a target's JSON. */
const show = (value: unknown): string => (value === undefined ? '(absent)' : showJson(value));

function problem(requirement: RequirementId, title: string, received: unknown, documented: string): BodyProblem {
  return { requirement, title, received: show(received), documented };
}

/** ISO 8601 date and time, extended or basic format, with an optional fraction and zone. */
const iso8601 =
  /^\d{4}(-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}([.,]\d+)?)?|\d{4}T\d{4}(\d{2}([.,]\d+)?)?)(Z|[+-]\d{2}(:?\d{2})?)?$/;

const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** "On `success`: URL of the finished image … served from {host} under a path beginning `/i/`." */
function resultUrlProblem(value: unknown): BodyProblem | undefined {
  let path: string | undefined;
  try {
    path = typeof value === 'string' ? pathOf(value) : undefined;
  } catch {
    path = undefined;
  }
  return path?.startsWith('/i/')
    ? undefined
    : problem(
        'RES-RESULT-URL-HOST-AND-PATH',
        'resultUrl is not a URL under /i/',
        value,
        'a URL "served from {host} under a path beginning `/i/`"',
      );
}

/** The create response and the sync 202: `{id, status: "pending", pollUrl}`, no resultUrl. */
function started(b: Body, statusRequirement: RequirementId): BodyProblem[] {
  const out: BodyProblem[] = [];
  if (!nonEmptyString(b.id))
    out.push(
      problem(
        'RES-TRYON-ID-RETURNED-ON-CREATE',
        'no try-on id',
        b.id,
        '"id | string | Identifier of the try-on, returned on creation"',
      ),
    );
  // "status | string | always `pending`"
  if (b.status !== 'pending')
    out.push(problem(statusRequirement, 'status is not pending', b.status, '"status | string | always `pending`"'));
  // "pollUrl … Path relative to {host}, equal to `/api/v1/tryons/<id>`."
  if (
    typeof b.id === 'string' &&
    b.pollUrl !== `/api/v1/tryons/${b.id}` &&
    b.pollUrl !== `/api/v1/tryons/${encodeURIComponent(b.id)}`
  ) {
    out.push(
      problem(
        'RES-POLL-URL-VALUE',
        'pollUrl is not /api/v1/tryons/<id>',
        b.pollUrl,
        `"equal to \`/api/v1/tryons/<id>\`": /api/v1/tryons/${b.id}`,
      ),
    );
  }
  // "resultUrl … Absent from the create response." The sync 202 is "identical in shape to the create response".
  if ('resultUrl' in b)
    out.push(
      problem(
        'RES-RESULT-URL-ABSENT-FROM-CREATE',
        'resultUrl is present',
        b.resultUrl,
        '"Absent from the create response."',
      ),
    );
  return out;
}

/** A try-on read (GET 200) or finished (sync 200), by its status. */
function tryOn(
  b: Body,
  o: {
    readonly statuses: readonly string[];
    readonly statusRequirement: RequirementId;
    readonly idRequirement: RequirementId;
  },
): BodyProblem[] {
  const out: BodyProblem[] = [];
  if (!nonEmptyString(b.id)) out.push(problem(o.idRequirement, 'no try-on id', b.id, '"id (string)"'));
  if (typeof b.status !== 'string' || !o.statuses.includes(b.status)) {
    out.push(
      problem(
        o.statusRequirement,
        'status is not one the spec gives here',
        b.status,
        o.statuses.map((s) => `"${s}"`).join(' or '),
      ),
    );
    return out;
  }
  if (b.status === 'success') {
    const bad = resultUrlProblem(b.resultUrl);
    if (bad) out.push(bad);
  } else if (b.resultUrl !== null) {
    // "`null` in every other state." (absent is not null: the field is "string or null")
    out.push(
      problem(
        'RES-RESULT-URL-NULL-UNLESS-SUCCESS',
        `resultUrl is not null on ${b.status}`,
        b.resultUrl,
        '"`null` in every other state"',
      ),
    );
  }
  if (b.status === 'failed' && !nonEmptyString(b.message)) {
    // "On `failed`: a short explanation that may be shown to a user"; Errors rule 1: "returns 200 with
    // status: "failed" and a message".
    out.push(
      problem(
        'RES-TRYON-MESSAGE-ON-FAILED',
        'no message on failed',
        b.message,
        '"message | string | On `failed`: a short explanation"',
      ),
    );
  }
  // "pollUrl … Only in the create response and in a `202` from the sync endpoint."
  if ('pollUrl' in b)
    out.push(
      problem(
        'RES-POLL-URL-ONLY-CREATE-AND-SYNC-202',
        'pollUrl outside the create response and the sync 202',
        b.pollUrl,
        '"Only in the create response and in a `202` from the sync endpoint."',
      ),
    );
  return out;
}

/** The upload response: "`id` (string, begins `img_`), `expiresAt` (string, ISO 8601, 24 hours after upload)". */
function uploaded(b: Body): BodyProblem[] {
  const out: BodyProblem[] = [];
  if (typeof b.id !== 'string' || !b.id.startsWith('img_'))
    out.push(problem('RES-IMAGE-ID-PREFIX', 'id does not begin img_', b.id, '"`id` (string, begins `img_`)"'));
  if (typeof b.expiresAt !== 'string' || !iso8601.test(b.expiresAt))
    out.push(
      problem(
        'RES-IMAGE-EXPIRES-AT-24H',
        'expiresAt is not an ISO 8601 timestamp',
        b.expiresAt,
        '"`expiresAt` (string, ISO 8601, 24 hours after upload)"',
      ),
    );
  return out;
}

const rules: Readonly<
  Record<string, { readonly requirement: RequirementId; readonly rule: (b: Body) => BodyProblem[] }>
> = {
  'createTryOn 200': {
    requirement: 'CREATE-ACCEPTED-IS-200',
    rule: (b) => started(b, 'CREATE-RESPONSE-STATUS-PENDING'),
  },
  'createTryOnSync 202': { requirement: 'SYNC-202-STILL-PENDING', rule: (b) => started(b, 'SYNC-202-STILL-PENDING') },
  'createTryOnSync 200': {
    requirement: 'SYNC-200-ON-SUCCESS',
    rule: (b) =>
      tryOn(b, {
        statuses: ['success', 'failed'],
        statusRequirement: 'SYNC-200-ON-SUCCESS',
        idRequirement: 'SYNC-200-ON-SUCCESS',
      }),
  },
  'getTryOn 200': {
    requirement: 'GET-RESPONSE-200-BODY',
    rule: (b) =>
      tryOn(b, {
        statuses: ['pending', 'success', 'failed'],
        statusRequirement: 'RES-TRYON-STATUS-VALUES',
        idRequirement: 'GET-RESPONSE-200-BODY',
      }),
  },
  'uploadImage 200': { requirement: 'UPLOAD-RESPONSE-200', rule: uploaded },
};

/**
 * What is wrong with a success body by the spec's words; nothing for answers whose body the spec
 * does not give (GET /account: "response body shape … not shown"; result images, whose bytes the
 * results tests read).
 */
export function bodyProblems(operationId: string, status: number, json: unknown, text: string): BodyProblem[] {
  const entry = rules[`${operationId} ${status}`];
  if (!entry) return [];
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return [
      problem(
        entry.requirement,
        'the body is not a JSON object',
        text.slice(0, 200) || '(empty or non-JSON body)',
        'a JSON object with the fields the spec lists',
      ),
    ];
  }
  return entry.rule(json as Body);
}
