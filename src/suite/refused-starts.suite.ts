/**
 * The ledger after every refusal a start can get (spec, What the service does: "A try-on that fails, or
 * cannot be started, is refunded automatically"; POST /tryons, Errors; POST /tryons/sync: "Same ... error
 * list"). Each refusal is sent on both create endpoints, with the balance read just before and just after
 * it: a refused start must leave the balance as it was, whichever branch of the target refused it. Rows
 * that need a capability of the run are tests of their own, so that a run without it skips them and says why.
 */
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { dimensions } from '../contract/alternatives.ts';
import type { RequirementId } from '../contract/requirements.ts';
import type { ScenarioName } from '../fixtures/scenarios.ts';
import { exercised } from './alternatives.ts';
import { Api, pollsPerWait, requireBalance } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import { precondition } from './rules.ts';
import { raisedLimits, type Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

/** One refused start: what it sends, and the status and code the spec gives that refusal. */
interface Refusal {
  readonly what: string;
  readonly status: number;
  readonly code: string;
  readonly body: Record<string, unknown>;
  /** Sent without an Idempotency-Key. */
  readonly keyless?: true;
}

const answerOf = (ex: Exchange): { id?: unknown; code?: unknown; status?: unknown } => {
  const json = ex.response?.json;
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? json : {};
};
const said = (ex: Exchange): string => `${ex.response?.status ?? ex.error} ${String(answerOf(ex).code ?? '')}`.trim();

/**
 * Sends each refusal on each create endpoint and judges the balance around it. A start the target
 * accepted after all is no refusal: it is settled, and the test ends inconclusive for it once the
 * others are judged (the code of each refusal is judged by the tests of its own rule).
 */
async function judgeLedger(t: ConformanceContext, api: Api, actor: Actor, rows: readonly Refusal[]): Promise<void> {
  const accepted: string[] = [];
  // Each reading after a start is the reading before the next one.
  let before = await api.credits(actor);
  for (const row of rows) {
    for (const endpoint of dimensions.endpoint.alternatives) {
      const sync = endpoint === 'POST /tryons/sync';
      t.reserve(1);
      const ex = await api.start(actor, row.body, {
        sync,
        keep: [row.status],
        ...(row.keyless && { idempotencyKey: null }),
        ...(row.status === 429 && { pace: false }),
      });
      const status = ex.response?.status;
      if (status === 200 || status === 202) {
        accepted.push(`${endpoint} with ${row.what} answered ${status}`);
        const final = await api.waitFinal(actor, String(answerOf(ex).id));
        if (answerOf(final).status !== 'success') t.target.budget.giveBack(1);
        before = await api.credits(actor);
        continue;
      }
      t.target.budget.giveBack(1);
      precondition(status !== undefined, `${endpoint} with ${row.what} got no answer (${ex.error})`);
      const after = await api.credits(actor);
      const where = `balance after ${endpoint} answered ${said(ex)} to ${row.what} (expected ${row.status} ${row.code})`;
      const rules: RequirementId[] =
        row.status === 502
          ? ['STATE-CREATE-STARTS-PENDING', 'STATE-NOT-STARTED-NO-CREDIT-NO-STATE']
          : ['STATE-CREATE-STARTS-PENDING'];
      // "A try-on that fails, or cannot be started, is refunded automatically." A refused start made no
      // try-on ("create try-on accepted | request valid, credit available"), so it costs nothing.
      const expected = before;
      for (const rule of rules) t.must(rule, () => expect({ [where]: after }).toEqual({ [where]: expected }));
      before = after;
      exercised(t, 'endpoint', endpoint, rules);
    }
  }
  precondition(
    accepted.length === 0,
    `starts the spec refuses were accepted, so their ledger was not judged here: ${accepted.join('; ')}`,
  );
}

const scenarioRows: ReadonlyArray<readonly [ScenarioName, number, string]> = [
  ['person-rejected', 422, 'PERSON_PHOTO_REJECTED'],
  ['image-rejected', 422, 'IMAGE_REJECTED'],
  ['garment-rejected', 422, 'GARMENT_REJECTED'],
  ['internal-error', 500, 'INTERNAL_ERROR'],
  ['start-failed', 502, 'START_FAILED'],
  ['unavailable', 503, 'UNAVAILABLE'],
];

describe('refused starts and the ledger', () => {
  conformance(
    'leaves the balance as it was after 400 and 403 refusals of the request itself, on both create endpoints',
    {
      value: 'ledger',
      covers: ['STATE-CREATE-STARTS-PENDING'],
      needs: [],
      credits: 8,
      starts: 8,
      polls: 8 * pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      requireBalance(t);
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      await judgeLedger(t, api, actor, [
        // "400 | MISSING_IDEMPOTENCY_KEY | Idempotency-Key missing or not 8-128 allowed characters"
        { what: 'no Idempotency-Key', status: 400, code: 'MISSING_IDEMPOTENCY_KEY', body, keyless: true },
        // "400 | INVALID_IMAGE_URL | URL not HTTPS, custom port, or private address"
        {
          what: 'a person URL that is not HTTPS',
          status: 400,
          code: 'INVALID_IMAGE_URL',
          body: { ...body, personImageId: undefined, personImageUrl: 'http://images.example/person.jpg' },
        },
        // "400 | INVALID_IMAGE_ID | unknown, older than 24 hours, or uploaded by another account"
        {
          what: 'an unknown garment image id',
          status: 400,
          code: 'INVALID_IMAGE_ID',
          body: { ...body, garmentImageId: 'img_unknown_to_this_target_000' },
        },
        // "403 | CONSENT_REQUIRED | `consent` was not `true`"
        { what: 'consent false', status: 403, code: 'CONSENT_REQUIRED', body: { ...body, consent: false } },
      ]);
    },
  );

  conformance(
    'leaves the balance as it was after 422, 500, 502 and 503 at start (scenario images), on both create endpoints',
    {
      value: 'ledger',
      covers: ['STATE-CREATE-STARTS-PENDING', 'STATE-NOT-STARTED-NO-CREDIT-NO-STATE'],
      needs: ['scenarios'],
      credits: 2 * scenarioRows.length,
      starts: 2 * scenarioRows.length,
      polls: 2 * scenarioRows.length * pollsPerWait,
      uploads: 2 + scenarioRows.length,
    },
    async (t) => {
      requireBalance(t);
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const rows = await Promise.all(
        scenarioRows.map(
          async ([scenario, status, code]): Promise<Refusal> => ({
            what: `a person photo marked ${scenario}`,
            status,
            code,
            body: await idBody(api, actor, scenario),
          }),
        ),
      );
      await judgeLedger(t, api, actor, rows);
    },
  );

  conformance(
    'leaves the balance as it was after fetched images are refused (400 not an image, 400 download failed, 413), on both create endpoints',
    {
      value: 'ledger',
      covers: ['STATE-CREATE-STARTS-PENDING'],
      needs: ['fixture-host'],
      credits: 6,
      starts: 6,
      polls: 6 * pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      requireBalance(t);
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      const byUrl = (at: 'person' | 'garment', url: string) => ({
        ...body,
        [`${at}ImageId`]: undefined,
        [`${at}ImageUrl`]: url,
      });
      await judgeLedger(t, api, actor, [
        // "400 | UNSUPPORTED_IMAGE | not JPEG or PNG": the file fetched is random bytes.
        {
          what: 'a garment URL serving random bytes',
          status: 400,
          code: 'UNSUPPORTED_IMAGE',
          body: byUrl('garment', api.fixtureUrl('random.bin')),
        },
        // "413 | IMAGE_TOO_LARGE | image larger than 4 MB": 4,194,305 bytes is over 4 MB however counted.
        {
          what: 'a person URL serving 4,194,305 bytes',
          status: 413,
          code: 'IMAGE_TOO_LARGE',
          body: byUrl('person', api.fixtureUrl('over-4mb.jpg')),
        },
        // "400 | IMAGE_DOWNLOAD_FAILED | URL did not give the image with HTTP 200 within 12 seconds"
        ...(t.target.config.fixtureBehaviours
          ? [
              {
                what: 'a person URL answering 404',
                status: 400,
                code: 'IMAGE_DOWNLOAD_FAILED',
                body: byUrl('person', api.behaviourUrl('/status/404')),
              },
            ]
          : []),
      ]);
    },
  );

  conformance(
    'leaves the balance as it was after 402 at a balance of 0 and after 429 over the start limit, on both create endpoints',
    {
      value: 'ledger',
      covers: ['STATE-CREATE-STARTS-PENDING'],
      needs: ['test-control'],
      credits: 5,
      starts: 5,
      polls: 5 * pollsPerWait,
      uploads: 4,
    },
    async (t) => {
      requireBalance(t);
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      // One start a minute: after one accepted start, the next ones in the minute are over the limit.
      const actor = await t.target.freshAccount({
        starts: 1,
        polls: raisedLimits.pollsPerMinute,
        uploads: raisedLimits.uploadsPerMinute,
      });
      const body = await idBody(api, actor);
      t.reserve(1);
      const first = await api.start(actor, body, { pace: false });
      const id = answerOf(first).id;
      precondition(
        first.response?.status === 200 && typeof id === 'string',
        `the first start at 1 a minute gave no try-on: ${said(first)}`,
      );
      const final = await api.waitFinal(actor, id as string);
      if (answerOf(final).status !== 'success') t.target.budget.giveBack(1);
      // "429 | RATE_LIMITED | too many requests" (the limit of 1 a minute is the run's own setting).
      await judgeLedger(t, api, actor, [
        { what: 'a second start within the minute', status: 429, code: 'RATE_LIMITED', body },
      ]);

      // "402 | INSUFFICIENT_CREDITS | no credits left"
      const other = await t.ownAccount();
      const accountId = other.accountId ?? t.skip('the fresh account has no id');
      const otherBody = await idBody(api, other);
      await control.setCredits(accountId, 0);
      await judgeLedger(t, api, other, [
        { what: 'a valid body at a balance of 0', status: 402, code: 'INSUFFICIENT_CREDITS', body: otherBody },
      ]);
    },
  );
});
