/**
 * A fixed, made-up run for the report's tests: test modules shaped like vitest's (`TestModuleLike`),
 * a small slice of the real catalogue, and run info. No vitest run needed, and the output is stable
 * enough to snapshot.
 */
import type { TaskMeta } from 'vitest';
import { requirement, type RequirementId } from '../contract/requirements.ts';
import {
  buildReport,
  type ErrorLike,
  type Report,
  type RunInfo,
  type TestCaseLike,
  type TestModuleLike,
} from './model.ts';

export interface FakeTest {
  readonly name: string;
  readonly describe?: string;
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending';
  readonly requirements: readonly RequirementId[];
  readonly meta?: Omit<TaskMeta, 'requirements'>;
  readonly errors?: readonly ErrorLike[];
  readonly note?: string;
  readonly annotations?: ReadonlyArray<{ readonly message: string; readonly type: string }>;
  readonly durationMs?: number;
}

/** A test case with what vitest would report for it. */
export function fakeTest(t: FakeTest): TestCaseLike {
  // A test of a real run that passed sent something (or its requirements are not observable): one exchange
  // unless the row says otherwise.
  const sent =
    t.state === 'passed' && t.meta?.evidence === undefined
      ? {
          evidence: [
            {
              curl: "curl -sS -i 'http://127.0.0.1:8787/api/v1/tryons/ton_00'",
              status: 404,
              body: '{"error":"No such try-on.","code":"NOT_FOUND"}',
            },
          ],
        }
      : {};
  const meta: TaskMeta = { requirements: [...t.requirements], ...sent, ...t.meta };
  return {
    name: t.name,
    fullName: t.describe === undefined ? t.name : `${t.describe} > ${t.name}`,
    meta: () => meta,
    result: () => ({
      state: t.state,
      errors: t.state === 'failed' ? (t.errors ?? [{ message: 'failed' }]) : undefined,
      ...(t.state === 'skipped' && { note: t.note }),
    }),
    annotations: () => t.annotations ?? [],
    diagnostic: () => (t.state === 'passed' || t.state === 'failed' ? { duration: t.durationMs ?? 12 } : undefined),
  };
}

export function fakeModule(
  file: string,
  tests: readonly TestCaseLike[],
  errors: readonly ErrorLike[] = [],
): TestModuleLike {
  const failed = errors.length > 0 || tests.some((t) => t.result().state === 'failed');
  return {
    relativeModuleId: file,
    state: () => (failed ? 'failed' : 'passed'),
    errors: () => errors,
    children: { allTests: () => tests[Symbol.iterator]() },
  };
}

const counterexample = [
  'Property failed after 3 tests',
  '{ seed: 1234567, path: "2:0:1", endOnFailure: true }',
  'Counterexample: [{"title":"<script>alert(1)</script>","garment":"img_b2"}]',
  'Shrunk 2 time(s)',
].join('\n');

const curl = (method: string, path: string, body?: string): string =>
  `curl -sS -i -X ${method} -H "authorization: Bearer $TRYON_API_KEY" -H 'idempotency-key: conf-7f3a9c' -H 'content-type: application/json'${body === undefined ? '' : ` --data-binary '${body}'`} 'http://127.0.0.1:8787/api/v1${path}'`;

/**
 * The made-up run: 11 tests in 8 files, passes, failures (a property, findings, a bare assertion, a broken
 * rule), an inconclusive test, skips and choices.
 */
export function fakeModules(): TestModuleLike[] {
  return [
    fakeModule('src/suite/auth.suite.ts', [
      fakeTest({
        describe: 'authentication',
        name: 'gives 401 INVALID_API_KEY for any missing or malformed Authorization, on every operation',
        state: 'passed',
        requirements: ['AUTH-BEARER-REQUIRED', 'ERR-INVALID-API-KEY'],
        meta: { cost: { credits: 0, starts: 0, polls: 0, uploads: 0 } },
        annotations: [{ type: 'notice', message: '60 cases over 5 operations, all 401 INVALID_API_KEY' }],
        durationMs: 1840,
      }),
      fakeTest({
        describe: 'authentication',
        name: 'a revoked key gets 401 INVALID_API_KEY',
        state: 'skipped',
        requirements: ['AUTH-REVOKED-KEY-401'],
        meta: {
          skipReason:
            'needs revoked-key: no revoked key was given (TRYON_REVOKED_API_KEY) and the target has no test control',
        },
      }),
    ]),
    fakeModule('src/suite/idempotency.suite.ts', [
      fakeTest({
        describe: 'idempotency',
        name: 'replays the first try-on for a reused Idempotency-Key',
        state: 'failed',
        requirements: ['CREATE-IDEMPOTENCY-REPLAY', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'],
        meta: {
          cost: { credits: 2, starts: 4, polls: 0, uploads: 0 },
          counterexample,
          choices: [
            {
              point: 'idempotency-different-body',
              value: '409 IDEMPOTENCY_KEY_CONFLICT',
              requirement: 'CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED',
            },
            {
              point: 'idempotency-different-body',
              value: '409 IDEMPOTENCY_KEY_CONFLICT',
              requirement: 'CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED',
            },
          ],
          evidence: [
            {
              curl: curl(
                'POST',
                '/tryons',
                '{"personImageId":"img_a1","garmentImageId":"img_b2","consent":true,"title":"<script>alert(1)</script>"}',
              ),
              status: 200,
              body: '{"id":"ton_01","status":"pending","pollUrl":"/api/v1/tryons/ton_01"}',
            },
            {
              curl: curl(
                'POST',
                '/tryons',
                '{"personImageId":"img_a1","garmentImageId":"img_b2","consent":true,"title":"<script>alert(1)</script>"}',
              ),
              status: 200,
              body: '{"id":"ton_02","status":"pending","pollUrl":"/api/v1/tryons/ton_02","title":"<script>alert(1)</script>"}',
            },
          ],
        },
        errors: [
          {
            message: `${counterexample}\nReplay: --seed 1234567 --path 2:0:1`,
            cause: { message: "expected 'ton_02' to deeply equal 'ton_01'", expected: "'ton_01'", actual: "'ton_02'" },
          },
        ],
        durationMs: 2310,
      }),
    ]),
    fakeModule('src/suite/body-rules.suite.ts', [
      fakeTest({
        describe: 'body rules',
        name: 'refuses a title over 120 characters with 400 INVALID_REQUEST',
        state: 'failed',
        requirements: ['CREATE-TITLE-OPTIONAL-UP-TO-120', 'ERR-TITLE-TOO-LONG-IMPL-DEFINED'],
        meta: {
          cost: { credits: 0, starts: 3, polls: 0, uploads: 0 },
          findings: [
            {
              check: 'status-documented',
              requirement: 'CREATE-TITLE-OPTIONAL-UP-TO-120',
              title: 'Undocumented status code',
              message: 'Received: 500\nDocumented: 200, 400, 401, 402, 409, 415, 422, 429, 500, 503',
              severity: 'error',
              exchange: 1,
            },
            {
              check: 'envelope',
              requirement: 'ERR-ENVELOPE-SHAPE',
              title: 'Error body is not the {error, code} envelope',
              message:
                'Received: {"message":"Internal Server Error"}\nDocumented: {"error": string, "code": ErrorCode}',
              severity: 'error',
              exchange: 1,
            },
          ],
          evidence: [
            {
              curl: curl(
                'POST',
                '/tryons',
                `{"personImageId":"img_a1","garmentImageId":"img_b2","consent":true,"title":"${'x'.repeat(121)}"}`,
              ),
              status: 500,
              body: '{"message":"Internal Server Error"}',
            },
          ],
          choices: [{ point: 'title-length', value: 'counted in UTF-16 code units' }],
        },
        errors: [
          {
            message:
              '2 check(s) failed on the exchanges of this test:\n- [CREATE-TITLE-OPTIONAL-UP-TO-120] Undocumented status code\n- [ERR-ENVELOPE-SHAPE] Error body is not the {error, code} envelope',
          },
        ],
        annotations: [{ type: 'observed', message: 'title of 121 code points → 500' }],
        durationMs: 95,
      }),
    ]),
    fakeModule('src/suite/create.suite.ts', [
      fakeTest({
        describe: 'create',
        name: 'an accepted start answers 200 with {id, status, pollUrl}, status pending',
        state: 'failed',
        requirements: ['CREATE-ACCEPTED-IS-200', 'CREATE-RESPONSE-STATUS-PENDING'],
        meta: {
          cost: { credits: 1, starts: 1, polls: 0, uploads: 0 },
          broken: [
            {
              requirement: 'CREATE-ACCEPTED-IS-200',
              message: "expected { op: 'createTryOn', …(3) } to deeply equal { op: 'createTryOn', …(3) }",
              expected: JSON.stringify(
                { op: 'createTryOn', status: 200, keys: ['id', 'pollUrl', 'status'], contentType: 'application/json' },
                null,
                2,
              ),
              actual: JSON.stringify(
                { op: 'createTryOn', status: 201, keys: ['id', 'pollUrl', 'status'], contentType: 'application/json' },
                null,
                2,
              ),
            },
          ],
          evidence: [
            {
              curl: curl('POST', '/tryons', '{"personImageId":"img_a1","garmentImageId":"img_b2","consent":true}'),
              status: 201,
              body: '{"id":"ton_05","status":"pending","pollUrl":"/api/v1/tryons/ton_05"}',
            },
          ],
        },
        errors: [
          {
            name: 'RuleBroken',
            message:
              "[CREATE-ACCEPTED-IS-200] expected { op: 'createTryOn', …(3) } to deeply equal { op: 'createTryOn', …(3) }",
          },
        ],
        durationMs: 160,
      }),
    ]),
    fakeModule('src/suite/uploads.suite.ts', [
      fakeTest({
        describe: 'uploads',
        name: 'accepts a JPEG of exactly 4 MB',
        state: 'failed',
        requirements: ['RES-IMAGE-UP-TO-4MB-ACCEPTED'],
        meta: {
          cost: { credits: 0, starts: 0, polls: 0, uploads: 1 },
          inconclusive: 'the fixture host answered 503 for the 4 MB image, so the upload could not be tried',
        },
        errors: [
          {
            name: 'Inconclusive',
            message: 'inconclusive: the fixture host answered 503 for the 4 MB image, so the upload could not be tried',
          },
        ],
        durationMs: 230,
      }),
    ]),
    fakeModule('src/suite/rate-limits.suite.ts', [
      fakeTest({
        describe: 'rate limits',
        name: 'the 13th start in a minute gets 429 RATE_LIMITED with Retry-After',
        state: 'passed',
        requirements: ['LIMIT-STARTS-12-PER-MINUTE', 'LIMIT-429-RETRY-AFTER'],
        meta: {
          cost: { credits: 0, starts: 13, polls: 0, uploads: 0 },
          choices: [
            {
              point: 'retry-after-window',
              value: 'rolling window, Retry-After 47 s',
              requirement: 'LIMIT-429-RETRY-AFTER',
            },
          ],
        },
        annotations: [
          { type: 'observed', message: 'Retry-After on the 13th start: 47 s (refused requests filled the window)' },
        ],
        durationMs: 61_200,
      }),
    ]),
    fakeModule('src/suite/routing.suite.ts', [
      fakeTest({
        describe: 'routing',
        name: 'unknown paths get 404 NOT_FOUND',
        state: 'passed',
        requirements: ['ROUTING-UNKNOWN-PATH-404', 'ERR-NOT-FOUND'],
        meta: {
          findings: [
            {
              check: 'error-message',
              requirement: 'ROUTING-UNKNOWN-PATH-404',
              title: 'Error message is terse',
              message: 'Received: "Not Found"\nDocumented: a human-readable sentence',
              severity: 'warning',
              exchange: 3,
            },
          ],
        },
        durationMs: 40,
      }),
    ]),
    fakeModule('src/suite/sync.suite.ts', [
      fakeTest({
        describe: 'sync',
        name: 'answers 200 with the final try-on when it finishes within the wait',
        state: 'passed',
        requirements: ['SYNC-200-ON-SUCCESS', 'STATE-CREATE-STARTS-PENDING'],
        meta: { cost: { credits: 1, starts: 1, polls: 0, uploads: 0 } },
        durationMs: 480,
      }),
      fakeTest({
        describe: 'sync',
        name: 'most try-ons finish within 30 seconds',
        state: 'failed',
        requirements: ['SVC-MOST-RESULTS-UNDER-30-SECONDS'],
        meta: { cost: { credits: 3, starts: 3, polls: 30, uploads: 0 } },
        errors: [{ message: 'expected 41200 to be below 30000 (median of 3 try-ons, ms)' }],
        durationMs: 124_000,
      }),
      fakeTest({
        describe: 'credits',
        name: 'a failed try-on gives its credit back',
        state: 'skipped',
        requirements: ['SVC-FAILED-TRYON-REFUNDED'],
        meta: {
          skipReason:
            'needs scenarios: the target is not known to follow the tryon-scenario convention (set TRYON_SCENARIOS=1 if it does)',
        },
      }),
    ]),
  ];
}

/** The slice of the catalogue the fake run is judged against. */
export const fakeCatalogueIds: readonly RequirementId[] = [
  'SVC-TYPICAL-CLIENT-FLOW',
  'SVC-FAILED-TRYON-REFUNDED',
  'SVC-MOST-RESULTS-UNDER-30-SECONDS',
  'STATE-CREATE-STARTS-PENDING',
  'CREATE-TITLE-OPTIONAL-UP-TO-120',
  'CREATE-IDEMPOTENCY-REPLAY',
  'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE',
  'CREATE-ACCEPTED-IS-200',
  'CREATE-RESPONSE-STATUS-PENDING',
  'RES-IMAGE-UP-TO-4MB-ACCEPTED',
  'SYNC-200-ON-SUCCESS',
  'ROUTING-UNKNOWN-PATH-404',
  'AUTH-BEARER-REQUIRED',
  'AUTH-KEY-NEVER-SHARED',
  'AUTH-REVOKED-KEY-401',
  'EVENTS-OUTCOME-BY-POLL-OR-SYNC',
  'ERR-ENVELOPE-SHAPE',
  'ERR-INVALID-API-KEY',
  'ERR-NOT-FOUND',
  'ERR-TITLE-TOO-LONG-IMPL-DEFINED',
  'LIMIT-STARTS-12-PER-MINUTE',
  'LIMIT-429-RETRY-AFTER',
  'VER-BASE-URL-V1',
];

export const fakeInfo: RunInfo = {
  tool: { name: 'tryon-conformance', version: '0.1.0' },
  target: { baseUrl: 'http://user:secret@127.0.0.1:8787/api/v1?key=abc', embedded: false },
  openapiSha256: '9f2c1e7b4d5a6c8e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70',
  seed: 1234567,
  profile: 'full',
  capabilities: new Map<string, true | string>([
    ['test-control', 'no test-control URL and token were given (--control-url, TRYON_CONTROL_TOKEN)'],
    ['second-account', true],
    ['revoked-key', 'no revoked key was given (TRYON_REVOKED_API_KEY) and the target has no test control'],
    ['fixture-host', true],
    ['scenarios', 'the target is not known to follow the tryon-scenario convention (set TRYON_SCENARIOS=1 if it does)'],
  ]),
  startedAt: '2025-11-22T05:37:00.000Z',
  durationMs: 192_345,
};

/** The report of the fake run. */
export function fakeReport(): Report {
  return buildReport(fakeModules(), fakeInfo, fakeCatalogueIds.map(requirement));
}
