/**
 * Credits (spec: What the service does, Pricing; Account credits; States and transitions rule 3;
 * Errors, INSUFFICIENT_CREDITS and START_FAILED; Authentication 3). One credit per finished
 * try-on, read from GET /account; failures, refused starts, 429s and replays cost nothing; an
 * account's first key brings 20 credits, once.
 */
import { describe, expect, inject } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { Api, newIdempotencyKey } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import { raisedLimits, type Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

interface Answer {
  readonly id?: unknown;
  readonly status?: unknown;
  readonly message?: unknown;
  readonly code?: unknown;
}

/** Polls one wait for a final state takes at the spec's 2-3 s: most results come within 30 s. */
const pollsPerWait = 12;
/** Try-ons the balance test starts: more where credits are test credits (test control). */
const chargedStarts = inject('suiteConfig').control !== undefined ? 5 : 3;

const answerOf = (ex: Exchange): Answer => (ex.response?.json ?? {}) as Answer;
const said = (ex: Exchange): string => `${ex.response?.status ?? ex.error} ${ex.response?.text ?? ''}`;
const raised = { starts: raisedLimits.startsPerMinute, polls: raisedLimits.pollsPerMinute, uploads: raisedLimits.uploadsPerMinute };



/** Polls each try-on to its final state, gives back what ended without a charge, and returns the final statuses. */
async function settle(t: ConformanceContext, api: Api, actor: Actor, ids: readonly string[], reserved: number = ids.length): Promise<unknown[]> {
  const finals = await Promise.all(ids.map(async (id) => answerOf(await api.waitFinal(actor, id)).status));
  t.target.budget.giveBack(Math.max(0, reserved - finals.filter((s) => s === 'success').length));
  return finals;
}

/** GET /account with a key, as it comes (the credits helper throws on anything but a balance). */
const account = (t: ConformanceContext, key: string): Promise<Exchange> => t.target.send({ method: 'GET', path: '/account', key, operationId: 'getAccount' });

describe('credits', () => {
  conformance(
    'charges one credit per success: the balance after equals the balance before minus the successes',
    {
      covers: ['SVC-ONE-CREDIT-PER-FINISHED-TRYON', 'ACCOUNT-GET-READS-CREDITS', 'CREATE-NEW-KEY-NEW-TRYON'],
      needs: [],
      credits: chargedStarts,
      starts: chargedStarts,
      polls: chargedStarts * pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      // The wrapper has checked the declared maximum against the budget; scale down if it has changed since.
      const k = Math.max(1, Math.min(chargedStarts, t.target.budget.remaining));
      const before = await api.credits(actor);
      t.reserve(k);

      // The same body each time, with a new key each time: k try-ons.
      const started = await Promise.all(Array.from({ length: k }, () => api.start(actor, body)));
      for (const ex of started) expect(ex.response?.status, said(ex)).toBe(200);
      const ids = started.map((ex) => String(answerOf(ex).id));
      expect(new Set(ids).size, 'distinct try-ons for distinct keys').toBe(k);

      const finals = await settle(t, api, actor, ids);
      expect(finals, 'final states of ordinary try-ons').toEqual(ids.map(() => 'success'));
      expect(before - (await api.credits(actor)), `credits used by ${k} successes`).toBe(k);
    },
  );

  conformance(
    'refunds a try-on that ends failed: it reads 200 failed with a message, and the balance is back',
    {
      covers: ['SVC-FAILED-TRYON-REFUNDED', 'STATE-PENDING-TO-FAILED', 'STATE-FAILED-READ-IS-200', 'STATE-GENERATION-PROBLEMS-NOT-HTTP-ERRORS'],
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
      const before = await api.credits(actor);
      t.reserve(1);

      const started = await api.start(actor, body);
      expect([started.response?.status, answerOf(started).status], `a start whose generation will fail: ${said(started)}`).toEqual([200, 'pending']);
      const final = await api.waitFinal(actor, String(answerOf(started).id));
      t.target.budget.giveBack(1);
      expect(final.response?.status, said(final)).toBe(200);
      expect(answerOf(final)).toMatchObject({ status: 'failed', resultUrl: null, message: expect.any(String) });
      expect(await api.credits(actor), 'balance after a failed try-on').toBe(before);
    },
  );

  conformance(
    'charges nothing for refused starts (403 consent false, 400 invalid image URL) nor for replays',
    { covers: ['STATE-CREATE-STARTS-PENDING', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE', 'ERR-CONSENT-REQUIRED', 'ERR-INVALID-IMAGE-URL'], needs: [], credits: 3, starts: 5, polls: pollsPerWait, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      const before = await api.credits(actor);
      // One for the try-on, and one for each refused start, so that a target that accepts one cannot pass the budget.
      t.reserve(3);
      const refused = [
        ['consent false', { ...body, consent: false }, 403, 'CONSENT_REQUIRED'],
        ['a person URL that is not HTTPS', { personImageUrl: 'http://images.example/person.jpg', garmentImageId: body.garmentImageId, consent: true }, 400, 'INVALID_IMAGE_URL'],
      ] as const;
      for (const [what, refusedBody, status, code] of refused) {
        const ex = await api.start(actor, refusedBody);
        expect([what, ex.response?.status, answerOf(ex).code], said(ex)).toEqual([what, status, code]);
      }
      t.target.budget.giveBack(2);

      const key = newIdempotencyKey();
      const first = await api.start(actor, body, { idempotencyKey: key });
      expect(first.response?.status, said(first)).toBe(200);
      const id = String(answerOf(first).id);
      for (const sync of [false, true]) {
        const replay = await api.start(actor, body, { idempotencyKey: key, sync });
        expect(answerOf(replay).id, `replay on ${sync ? 'POST /tryons/sync' : 'POST /tryons'}: ${said(replay)}`).toBe(id);
      }
      const finals = await settle(t, api, actor, [id]);
      expect(before - (await api.credits(actor)), 'credits used by two refused starts and a try-on replayed twice').toBe(finals.filter((s) => s === 'success').length);
    },
  );

  conformance(
    'charges nothing for a start refused with 429 RATE_LIMITED',
    { covers: ['STATE-CREATE-STARTS-PENDING', 'ERR-RATE-LIMITED'], needs: ['test-control'], credits: 2, starts: 2, polls: pollsPerWait, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      // One start a minute: the second start in a row is over the limit.
      const actor = await t.target.freshAccount({ starts: 1, polls: raised.polls, uploads: raised.uploads });
      const body = await idBody(api, actor);
      const before = await api.credits(actor);
      t.reserve(2);

      const first = await api.start(actor, body, { pace: false });
      expect(first.response?.status, said(first)).toBe(200);
      const limited = await api.start(actor, body, { pace: false });
      const accepted = [first, limited].filter((ex) => ex.response?.status === 200).map((ex) => String(answerOf(ex).id));
      const finals = await settle(t, api, actor, accepted, 2);
      expect([limited.response?.status, answerOf(limited).code], `the second start within a minute at 1 a minute: ${said(limited)}`).toEqual([429, 'RATE_LIMITED']);
      expect(before - (await api.credits(actor)), 'credits used by one try-on and one 429').toBe(finals.filter((s) => s === 'success').length);
    },
  );

  conformance(
    'charges nothing for 502 START_FAILED, and the failed start leaves no try-on behind',
    { covers: ['ERR-START-FAILED', 'STATE-NOT-STARTED-NO-CREDIT-NO-STATE'], needs: ['scenarios'], credits: 1, starts: 2, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor, 'start-failed');
      const before = await api.credits(actor);
      t.reserve(1);

      const key = newIdempotencyKey();
      for (const attempt of ['first', 'retry with the same key']) {
        const ex = await api.start(actor, body, { idempotencyKey: key });
        expect([attempt, ex.response?.status, answerOf(ex).code], said(ex)).toEqual([attempt, 502, 'START_FAILED']);
        expect('id' in answerOf(ex), `${attempt}: a START_FAILED answer names a try-on`).toBe(false);
      }
      t.target.budget.giveBack(1);
      expect(await api.credits(actor), 'balance after two START_FAILED answers').toBe(before);
    },
  );

  conformance(
    'gives 402 INSUFFICIENT_CREDITS at a balance of 0 and starts nothing: the same key starts afresh once credited',
    { covers: ['ERR-INSUFFICIENT-CREDITS', 'STATE-CREATE-STARTS-PENDING'], credits: 1, starts: 3, polls: pollsPerWait, uploads: 2 },
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
        expect([sync ? 'sync' : 'async', ex.response?.status, answerOf(ex).code], said(ex)).toEqual([sync ? 'sync' : 'async', 402, 'INSUFFICIENT_CREDITS']);
      }
      expect(await api.credits(actor), 'balance after two 402 answers').toBe(0);

      // Nothing was bound to the key: with a credit, the same request starts a try-on now.
      await control.setCredits(accountId, 1);
      t.reserve(1);
      const started = await api.start(actor, body, { idempotencyKey: key });
      expect([started.response?.status, answerOf(started).status], said(started)).toEqual([200, 'pending']);
      const finals = await settle(t, api, actor, [String(answerOf(started).id)]);
      expect(await api.credits(actor), `balance after one ${String(finals[0])} try-on from a balance of 1`).toBe(finals[0] === 'success' ? 0 : 1);
    },
  );

  conformance(
    'gives a new account 20 credits with its first key, once: a rotated key adds none, and the old key is refused',
    { covers: ['ACCOUNT-FREE-CREDITS-ONCE', 'AUTH-ONE-ACTIVE-KEY', 'ACCOUNT-GET-READS-CREDITS'] },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const made = await control.createAccount();
      t.target.secrets[made.apiKey] = '$TRYON_FRESH_API_KEY';
      expect(made.credits, 'credits of a new account, as test control reports them').toBe(20);

      let key = made.apiKey;
      for (const step of ['first key', 'second key', 'third key']) {
        if (step !== 'first key') {
          const old = key;
          key = await control.rotateKey(made.accountId);
          t.target.secrets[key] = '$TRYON_FRESH_API_KEY';
          const refused = await account(t, old);
          expect([step, refused.response?.status, answerOf(refused).code], `the key before the ${step}: ${said(refused)}`).toEqual([step, 401, 'INVALID_API_KEY']);
        }
        const read = await account(t, key);
        expect([step, read.response?.status, (read.response?.json as { credits?: unknown } | undefined)?.credits], said(read)).toEqual([step, 200, 20]);
      }
    },
  );
});
