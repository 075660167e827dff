/**
 * Credits (spec: Pricing; Account credits): one per finished try-on, nothing for failures, refused
 * starts, 429s or replays, 20 with an account's first key. Without a balance reader a test that only
 * checks a charge skips, and the others end inconclusive at the comparison.
 */
import { describe, expect, inject } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { dimensions } from '../contract/alternatives.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { exercised } from './alternatives.ts';
import { Api, balanceIfRead, newIdempotencyKey, noBalance, pollsPerWait, requireBalance } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import { precondition } from './rules.ts';
import { raisedLimits, type Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

interface Answer {
  readonly id?: unknown;
  readonly status?: unknown;
  readonly message?: unknown;
  readonly resultUrl?: unknown;
  readonly code?: unknown;
}

/** Try-ons the balance test starts: more where credits are test credits (test control). */
const chargedStarts = inject('suiteConfig').control !== undefined ? 5 : 3;

const answerOf = (ex: Exchange): Answer => {
  const json = ex.response?.json;
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Answer) : {};
};
const said = (ex: Exchange): string =>
  `${ex.response?.status ?? ex.error} ${ex.response?.text.slice(0, 200) ?? ''}`.trim();
const raised = {
  starts: raisedLimits.startsPerMinute,
  polls: raisedLimits.pollsPerMinute,
  uploads: raisedLimits.uploadsPerMinute,
};

/** Polls each try-on to its final state, gives back what ended without a charge, and returns the final statuses; inconclusive when one is still pending. */
async function settle(
  t: ConformanceContext,
  api: Api,
  actor: Actor,
  ids: readonly string[],
  reserved: number = ids.length,
): Promise<unknown[]> {
  const finals = await Promise.all(ids.map(async (id) => answerOf(await api.waitFinal(actor, id)).status));
  t.target.budget.giveBack(Math.max(0, reserved - finals.filter((s) => s === 'success').length));
  precondition(
    finals.every((s) => s === 'success' || s === 'failed'),
    `a try-on did not reach a final state the run could read (${finals.join(', ')}), so the balance cannot be compared yet`,
  );
  return finals;
}

/** The try-on id of a start the test needs; inconclusive when the start gave none (no credit, a limit, a transient error). */
function startedId(ex: Exchange, what: string): string {
  const id = answerOf(ex).id;
  precondition(ex.response?.status === 200 && typeof id === 'string', `${what} gave no try-on: ${said(ex)}`);
  return id as string;
}

const codeOf = (ex: Exchange): unknown => answerOf(ex).code;
const statusOf = (ex: Exchange): number | string | undefined => ex.response?.status ?? ex.error;

describe('credits', () => {
  conformance(
    'charges one credit per success: the balance after equals the balance before minus the successes',
    {
      value: 'ledger',
      covers: ['SVC-ONE-CREDIT-PER-FINISHED-TRYON', 'ACCOUNT-GET-READS-CREDITS', 'CREATE-NEW-KEY-NEW-TRYON'],
      needs: [],
      credits: chargedStarts,
      starts: chargedStarts,
      polls: chargedStarts * pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      requireBalance(t);
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      // The wrapper has checked the declared maximum against the budget; scale down if it has changed since.
      const k = Math.max(1, Math.min(chargedStarts, t.target.budget.left));
      const before = await api.credits(actor);
      t.reserve(k);

      // The same body each time, with a new key each time: k try-ons.
      const started = await Promise.all(Array.from({ length: k }, () => api.start(actor, body)));
      const ids = started.map((ex, i) => startedId(ex, `start ${i + 1} of ${k}`));
      // Idempotency-Key: "New per try-on; the same when retrying": a new key is a new try-on.
      t.must('CREATE-NEW-KEY-NEW-TRYON', () =>
        expect({ 'distinct try-ons for distinct keys': new Set(ids).size }).toEqual({
          'distinct try-ons for distinct keys': k,
        }),
      );

      // An ordinary generation may fail (and be refunded); only the charge of the successes is judged.
      const finals = await settle(t, api, actor, ids);
      const successes = finals.filter((s) => s === 'success').length;
      precondition(
        successes > 0,
        `none of ${k} try-ons succeeded (${finals.join(', ')}), so the charge of a success was not seen`,
      );
      const used = before - (await api.credits(actor));
      // "Pricing: 1 credit per finished try-on." (and "A try-on that fails ... is refunded automatically").
      t.must('SVC-ONE-CREDIT-PER-FINISHED-TRYON', () =>
        expect({ [`credits used by ${successes} successes of ${k}`]: used }).toEqual({
          [`credits used by ${successes} successes of ${k}`]: successes,
        }),
      );
    },
  );

  conformance(
    'refunds a try-on that ends failed: it reads 200 failed with a message, and the balance is back',
    {
      value: 'ledger',
      covers: [
        'SVC-FAILED-TRYON-REFUNDED',
        'STATE-PENDING-TO-FAILED',
        'STATE-FAILED-READ-IS-200',
        'STATE-GENERATION-PROBLEMS-NOT-HTTP-ERRORS',
        'RES-RESULT-URL-NULL-UNLESS-SUCCESS',
      ],
      needs: ['scenarios'],
      credits: 1,
      starts: 1,
      polls: pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor, 'generation-fails');
      const before = await balanceIfRead(t.target, actor.key);
      t.reserve(1);

      const started = await api.start(actor, body);
      // "Problems that appear only during image generation are not HTTP errors; they surface as `failed`."
      t.must('STATE-GENERATION-PROBLEMS-NOT-HTTP-ERRORS', () =>
        expect({
          'a start whose generation will fail': [started.response?.status ?? started.error, answerOf(started).status],
        }).toEqual({ 'a start whose generation will fail': [200, 'pending'] }),
      );
      const final = await api.waitFinal(actor, String(answerOf(started).id));
      t.target.budget.giveBack(1);
      const a = answerOf(final);
      precondition(
        !(final.response?.status === 200 && a.status === 'pending'),
        'the try-on was still pending when the run stopped polling',
      );
      // "A `failed` try-on is reported with HTTP 200 on read".
      t.must('STATE-FAILED-READ-IS-200', () =>
        expect({ 'read of the failed try-on': final.response?.status ?? final.error }).toEqual({
          'read of the failed try-on': 200,
        }),
      );
      // "`pending` | generation cannot finish ... | `failed` | credit refunded automatically; `message` explains".
      t.must('STATE-PENDING-TO-FAILED', () =>
        expect({ status: a.status, message: typeof a.message }).toEqual({ status: 'failed', message: 'string' }),
      );
      // resultUrl: "`null` in every other state."
      t.must('RES-RESULT-URL-NULL-UNLESS-SUCCESS', () =>
        expect({ 'resultUrl of a failed try-on': a.resultUrl }).toEqual({ 'resultUrl of a failed try-on': null }),
      );
      // "A try-on that fails, or cannot be started, is refunded automatically."
      precondition(before !== undefined, noBalance(t.target));
      const after = await api.credits(actor);
      t.must('SVC-FAILED-TRYON-REFUNDED', () =>
        expect({ 'balance after a failed try-on': after }).toEqual({ 'balance after a failed try-on': before }),
      );
    },
  );

  conformance(
    'charges nothing for refused starts (403 consent false, 400 invalid image URL, 422 with scenarios) nor for replays',
    {
      value: 'ledger',
      covers: [
        'STATE-CREATE-STARTS-PENDING',
        'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE',
        'CREATE-IDEMPOTENCY-REPLAY',
        'SYNC-SAME-CONTRACT-AS-CREATE',
        'ERR-CONSENT-REQUIRED',
        'ERR-INVALID-IMAGE-URL',
        'ERR-IMAGE-REJECTED',
      ],
      needs: [],
      credits: 4,
      starts: 6,
      polls: pollsPerWait,
      uploads: 3,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      const scenarios = t.target.offers.get('scenarios') === true;
      const refused: Array<readonly [string, Record<string, unknown>, number, string, RequirementId]> = [
        // "403 | CONSENT_REQUIRED | `consent` was not `true`"
        ['consent false', { ...body, consent: false }, 403, 'CONSENT_REQUIRED', 'ERR-CONSENT-REQUIRED'],
        // "400 | INVALID_IMAGE_URL | URL not HTTPS, custom port, or private address"
        [
          'a person URL that is not HTTPS',
          { personImageUrl: 'http://images.example/person.jpg', garmentImageId: body.garmentImageId, consent: true },
          400,
          'INVALID_IMAGE_URL',
          'ERR-INVALID-IMAGE-URL',
        ],
        // "422 | IMAGE_REJECTED | image cannot be used for a try-on" (the scenario marker asks for it)
        ...(scenarios
          ? [
              [
                'an image the target rejects',
                await idBody(api, actor, 'image-rejected'),
                422,
                'IMAGE_REJECTED',
                'ERR-IMAGE-REJECTED',
              ] as const,
            ]
          : []),
      ];
      const before = await balanceIfRead(t.target, actor.key);
      // One for the try-on, and one for each refused start, so that a target that accepts one cannot pass the budget.
      t.reserve(1 + refused.length);
      for (const [what, refusedBody, status, code, id] of refused) {
        const ex = await api.start(actor, refusedBody);
        t.must(id, () =>
          expect({ [what]: [ex.response?.status ?? ex.error, codeOf(ex)] }).toEqual({ [what]: [status, code] }),
        );
      }
      const afterRefused = await balanceIfRead(t.target, actor.key);
      t.target.budget.giveBack(refused.length);

      const key = newIdempotencyKey();
      const id = startedId(await api.start(actor, body, { idempotencyKey: key }), 'the start');
      for (const sync of [false, true]) {
        const replay = await api.start(actor, body, { idempotencyKey: key, sync });
        // "Reusing an Idempotency-Key returns the earlier try-on"; the sync endpoint has the "Same ... idempotency behaviour".
        t.must(sync ? 'SYNC-SAME-CONTRACT-AS-CREATE' : 'CREATE-IDEMPOTENCY-REPLAY', () =>
          expect({ [`replay on ${sync ? 'POST /tryons/sync' : 'POST /tryons'}`]: answerOf(replay).id }).toEqual({
            [`replay on ${sync ? 'POST /tryons/sync' : 'POST /tryons'}`]: id,
          }),
        );
      }
      const finals = await settle(t, api, actor, [id]);
      // The balances are compared last, so that a run without a balance reading judges the answers above.
      precondition(before !== undefined && afterRefused !== undefined, noBalance(t.target));
      // States and transitions: a try-on comes only from "create try-on accepted | request valid, credit available".
      t.must('STATE-CREATE-STARTS-PENDING', () =>
        expect({ [`credits used by ${refused.length} refused starts`]: before - afterRefused }).toEqual({
          [`credits used by ${refused.length} refused starts`]: 0,
        }),
      );
      const used = afterRefused - (await api.credits(actor));
      // "one key can never be charged twice" (Errors rule 2).
      t.must('CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE', () =>
        expect({ 'credits used by a try-on replayed twice': used }).toEqual({
          'credits used by a try-on replayed twice': finals.filter((s) => s === 'success').length,
        }),
      );
    },
  );

  conformance(
    'charges nothing for a start refused with 429 RATE_LIMITED',
    {
      value: 'ledger',
      covers: ['STATE-CREATE-STARTS-PENDING', 'ERR-RATE-LIMITED'],
      needs: ['test-control'],
      credits: 2,
      starts: 2,
      polls: pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      const api = new Api(t.target);
      // One start a minute: the second start in a row is over the limit.
      const actor = await t.target.freshAccount({ starts: 1, polls: raised.polls, uploads: raised.uploads });
      const body = await idBody(api, actor);
      const before = await balanceIfRead(t.target, actor.key);
      t.reserve(2);

      const first = await api.start(actor, body, { pace: false });
      const limited = await api.start(actor, body, { pace: false });
      const accepted = [first, limited]
        .filter((ex) => ex.response?.status === 200)
        .map((ex) => String(answerOf(ex).id));
      const finals = await settle(t, api, actor, accepted, 2);
      startedId(first, 'the first start at 1 a minute');
      // The limit of 1 a minute is the run's own setting (test control); a target whose window let the
      // second start through judged nothing here.
      precondition(
        limited.response?.status === 429,
        `the second start within a minute at 1 a minute was not limited: ${said(limited)}`,
      );
      // "429 | RATE_LIMITED | too many requests"
      t.must('ERR-RATE-LIMITED', () =>
        expect({ 'code of the 429': codeOf(limited) }).toEqual({ 'code of the 429': 'RATE_LIMITED' }),
      );
      precondition(before !== undefined, noBalance(t.target));
      const used = before - (await api.credits(actor));
      t.must('STATE-CREATE-STARTS-PENDING', () =>
        expect({ 'credits used by one try-on and one 429': used }).toEqual({
          'credits used by one try-on and one 429': finals.filter((s) => s === 'success').length,
        }),
      );
    },
  );

  conformance(
    'charges nothing for 502 START_FAILED, and the failed start leaves no try-on behind',
    {
      value: 'ledger',
      covers: ['ERR-START-FAILED', 'STATE-NOT-STARTED-NO-CREDIT-NO-STATE'],
      needs: ['scenarios'],
      credits: 1,
      starts: 2,
      uploads: 2,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor, 'start-failed');
      const before = await balanceIfRead(t.target, actor.key);
      t.reserve(1);

      const key = newIdempotencyKey();
      for (const attempt of ['first', 'retry with the same key']) {
        const ex = await api.start(actor, body, { idempotencyKey: key, keep: [502] });
        // "502 | START_FAILED | try-on could not be started; no credit used" (the scenario marker asks for it).
        t.must('ERR-START-FAILED', () =>
          expect({ [attempt]: [ex.response?.status ?? ex.error, codeOf(ex)] }).toEqual({
            [attempt]: [502, 'START_FAILED'],
          }),
        );
        // "A try-on that cannot be started (`START_FAILED`) uses no credit and has no state": no try-on id.
        t.must('STATE-NOT-STARTED-NO-CREDIT-NO-STATE', () =>
          expect({ [`${attempt}: a try-on id in the START_FAILED answer`]: 'id' in answerOf(ex) }).toEqual({
            [`${attempt}: a try-on id in the START_FAILED answer`]: false,
          }),
        );
      }
      t.target.budget.giveBack(1);
      precondition(before !== undefined, noBalance(t.target));
      const after = await api.credits(actor);
      t.must('STATE-NOT-STARTED-NO-CREDIT-NO-STATE', () =>
        expect({ 'balance after two START_FAILED answers': after }).toEqual({
          'balance after two START_FAILED answers': before,
        }),
      );
    },
  );

  conformance(
    'gives 402 INSUFFICIENT_CREDITS at a balance of 0 and starts nothing; records whether the same key starts once credited',
    {
      value: 'ledger',
      covers: ['ERR-INSUFFICIENT-CREDITS', 'STATE-CREATE-STARTS-PENDING'],
      credits: 1,
      starts: 3,
      polls: pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const accountId = actor.accountId ?? t.skip('the fresh account has no id');
      const body = await idBody(api, actor);
      await control.setCredits(accountId, 0);

      const key = newIdempotencyKey();
      for (const sync of [false, true]) {
        const ex = await api.start(actor, body, { idempotencyKey: key, sync });
        // "402 | INSUFFICIENT_CREDITS | no credits left"
        t.must('ERR-INSUFFICIENT-CREDITS', () =>
          expect({ [sync ? 'sync' : 'async']: [ex.response?.status ?? ex.error, codeOf(ex)] }).toEqual({
            [sync ? 'sync' : 'async']: [402, 'INSUFFICIENT_CREDITS'],
          }),
        );
      }
      const after = await balanceIfRead(t.target, actor.key);

      // Whether the key is free again after a refused start is not said: a 402 made no try-on for
      // "Reusing an Idempotency-Key" to return, and keeping or forgetting the key is the target's choice.
      await control.setCredits(accountId, 1);
      t.reserve(1);
      const again = await api.start(actor, body, { idempotencyKey: key });
      const id = answerOf(again).id;
      t.choose(
        'key-after-refused-start',
        `the key of two 402 answers, once credited: ${again.response?.status === 200 && typeof id === 'string' ? 'starts a try-on' : said(again)}`,
        'ERR-INSUFFICIENT-CREDITS',
      );
      if (again.response?.status === 200 && typeof id === 'string')
        await settle(t, api, actor, [id]).catch(() => undefined);
      else t.target.budget.giveBack(1);
      // A try-on needs "credit available"; none was made, so none was charged (compared last).
      precondition(after !== undefined, noBalance(t.target));
      t.must('STATE-CREATE-STARTS-PENDING', () =>
        expect({ 'balance after two 402 answers': after }).toEqual({ 'balance after two 402 answers': 0 }),
      );
    },
  );

  conformance(
    'starts a try-on at a balance of exactly 1 on each create endpoint, and gives the next start, at 0, 402',
    {
      value: 'ledger',
      covers: ['ERR-INSUFFICIENT-CREDITS'],
      needs: ['test-control'],
      credits: 4,
      starts: 4,
      polls: 2 * pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const accountId = actor.accountId ?? t.skip('the fresh account has no id');
      const body = await idBody(api, actor);
      for (const endpoint of dimensions.endpoint.alternatives) {
        const sync = endpoint === 'POST /tryons/sync';
        await control.setCredits(accountId, 1);
        t.reserve(2);
        const last = await api.start(actor, body, { sync });
        const id = answerOf(last).id;
        // "402 | INSUFFICIENT_CREDITS | no credits left": at a balance of 1 a credit is left, and a start with
        // "request valid, credit available" is accepted: "status 200" (sync: 200 finished or 202 still working).
        t.must('ERR-INSUFFICIENT-CREDITS', () =>
          expect({ [`${endpoint} at a balance of 1`]: said(last) }).toMatchObject({
            [`${endpoint} at a balance of 1`]: expect.stringMatching(sync ? /^20[02] / : /^200 /),
          }),
        );
        exercised(t, 'endpoint', endpoint, ['ERR-INSUFFICIENT-CREDITS']);
        const finals = await settle(t, api, actor, [String(id)], 1);
        precondition(
          finals[0] === 'success',
          `the try-on at a balance of 1 ended ${String(finals[0])}, refunded, so no start at a balance of 0 followed`,
        );
        const next = await api.start(actor, body, { sync });
        if (next.response?.status !== 200 && next.response?.status !== 202) t.target.budget.giveBack(1);
        // The one credit went to the finished try-on ("1 credit per finished try-on"): none is left.
        t.must('ERR-INSUFFICIENT-CREDITS', () =>
          expect({ [`${endpoint} after the last credit was used`]: [statusOf(next), codeOf(next)] }).toEqual({
            [`${endpoint} after the last credit was used`]: [402, 'INSUFFICIENT_CREDITS'],
          }),
        );
      }
    },
  );

  conformance(
    'gives a new account 20 credits with its first key, once: a rotated key adds none, and the old key is refused',
    { covers: ['ACCOUNT-FREE-CREDITS-ONCE', 'AUTH-ONE-ACTIVE-KEY', 'ACCOUNT-GET-READS-CREDITS'] },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const made = await control.createAccount();
      t.target.secrets[made.apiKey] = '$TRYON_FRESH_API_KEY';

      let key = made.apiKey;
      const balances: Array<[string, number | undefined]> = [];
      for (const step of ['first key', 'second key', 'third key']) {
        if (step !== 'first key') {
          const old = key;
          key = await control.rotateKey(made.accountId);
          t.target.secrets[key] = '$TRYON_FRESH_API_KEY';
          // Probed on GET /tryons/{id}, whose errors the spec lists (GET /account's are "not shown"):
          // "One active key per account"; "A missing, malformed or revoked key gives 401 with code `INVALID_API_KEY`".
          const refused = await t.target.send({
            method: 'GET',
            path: '/tryons/ton_no_such_tryon',
            key: old,
            operationId: 'getTryOn',
          });
          t.must('AUTH-ONE-ACTIVE-KEY', () =>
            expect({
              [`the key before the ${step}`]: [refused.response?.status ?? refused.error, codeOf(refused)],
            }).toEqual({ [`the key before the ${step}`]: [401, 'INVALID_API_KEY'] }),
          );
        }
        balances.push([step, await balanceIfRead(t.target, key)]);
      }
      // "Its first API key adds 20 free credits, once per account." (compared last)
      precondition(
        balances.every(([, b]) => b !== undefined),
        noBalance(t.target),
      );
      for (const [step, balance] of balances)
        t.must('ACCOUNT-FREE-CREDITS-ONCE', () =>
          expect({ [`balance with the ${step}`]: balance }).toEqual({ [`balance with the ${step}`]: 20 }),
        );
    },
  );
});
