/**
 * Idempotency-Key (spec: POST /tryons rules 3-4; POST /tryons/sync "same idempotency behaviour";
 * Errors rule 2; openapi.yaml x-point idempotency-retention, idempotency-in-flight,
 * idempotency-different-body, sync-pick-up). A reused key returns the earlier try-on and is never
 * charged twice; an error answer leaves the key free; what the spec leaves open is recorded.
 */
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { documentedLimits } from '../client/pacer.ts';
import { scenarios, type ScenarioName } from '../fixtures/scenarios.ts';
import { Api, newIdempotencyKey, urlBody } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

interface Answer {
  readonly id?: unknown;
  readonly status?: unknown;
  readonly pollUrl?: unknown;
  readonly code?: unknown;
  readonly error?: unknown;
}

/** Polls one wait for a final state takes at the spec's 2-3 s: most results come within 30 s. */
const pollsPerWait = 12;
/** The same for a generation that outlasts the sync wait of about 55 s. */
const pollsPerSlowWait = 40;
/** A test that waits out a slow generation and two sync waits of about 55 s, at documented limits. */
const slowTestMs = 360_000;

const answerOf = (ex: Exchange): Answer => (ex.response?.json ?? {}) as Answer;
/** Status and body together, so that one `toEqual` compares a replay with its original. */
const seen = (ex: Exchange) => ({ status: ex.response?.status ?? ex.error, body: ex.response?.json });



/**
 * Polls each try-on to its final state, gives back the part of the `reserved` credits that ended
 * without a charge, and returns the number of successes.
 */
async function settle(t: ConformanceContext, api: Api, actor: Actor, ids: readonly string[], reserved: number = ids.length): Promise<number> {
  const finals = await Promise.all([...new Set(ids)].map(async (id) => answerOf(await api.waitFinal(actor, id)).status));
  const successes = finals.filter((s) => s === 'success').length;
  t.target.budget.giveBack(Math.max(0, reserved - successes));
  return successes;
}

const idOf = (ex: Exchange): string => {
  const id = answerOf(ex).id;
  expect(typeof id, `no try-on id in ${ex.response?.status ?? ex.error}: ${ex.response?.text ?? ''}`).toBe('string');
  return id as string;
};

describe('idempotency', () => {
  conformance(
    'replays the earlier try-on for a reused key and body: same id, same status and body, and no second charge',
    { covers: ['CREATE-IDEMPOTENCY-REPLAY', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'], needs: [], credits: 1, starts: 3, polls: pollsPerWait, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      const key = newIdempotencyKey();
      const before = await api.credits(actor);

      t.reserve(1);
      const first = await api.start(actor, body, { idempotencyKey: key });
      expect(first.response?.status, first.response?.text).toBe(200);
      const id = idOf(first);
      expect(seen(await api.start(actor, body, { idempotencyKey: key })), 'replay while pending').toEqual(seen(first));

      const successes = await settle(t, api, actor, [id]);
      expect(seen(await api.start(actor, body, { idempotencyKey: key })), 'replay after the final state').toEqual(seen(first));
      expect(before - (await api.credits(actor)), 'credits used by one key started once and replayed twice').toBe(successes);
    },
  );

  conformance(
    'makes one try-on of N parallel requests with one key: every answer is that id, or 409 with Retry-After',
    {
      covers: ['CREATE-IDEMPOTENCY-IN-FLIGHT-IMPL-DEFINED', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE', 'SYNC-SAME-CONTRACT-AS-CREATE'],
      needs: [],
      credits: 1,
      starts: 5,
      polls: pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      // Inputs by URL keep the first request busy fetching while the others arrive (the in-flight case).
      const body = t.target.offers.get('fixture-host') === true ? urlBody(api) : await idBody(api, actor);
      const key = newIdempotencyKey();
      const n = t.target.pacer.limits.starts > documentedLimits.starts ? 20 : 4;
      const before = await api.credits(actor);

      t.reserve(1);
      // Half on each create endpoint: they share the key.
      const answers = await Promise.all(Array.from({ length: n }, (_, i) => api.start(actor, body, { idempotencyKey: key, sync: i % 2 === 1 })));
      const ids = new Set<string>();
      let conflicts = 0;
      let retryAfter = 0;
      for (const [i, ex] of answers.entries()) {
        const status = ex.response?.status;
        if (status === 409) {
          conflicts++;
          const header = ex.response?.headers['retry-after'] ?? '';
          expect(header, `answer ${i}: 409 without Retry-After`).toMatch(/^\d+$/);
          retryAfter = Math.max(retryAfter, Number(header));
          continue;
        }
        expect([200, 202], `answer ${i} (${i % 2 === 1 ? 'sync' : 'async'}): ${status ?? ex.error} ${ex.response?.text ?? ''}`).toContain(status);
        ids.add(idOf(ex));
      }
      expect(ids.size, `try-ons made by ${n} parallel requests with one key: ${[...ids].join(', ')}`).toBe(1);
      await t.vitest.annotate(`${n} parallel requests with one key: ${n - conflicts} answered with the try-on, ${conflicts} with 409`, 'observed');
      if (conflicts > 0) {
        // A client told 409 retries after Retry-After with the same key, and gets the one try-on.
        await new Promise((r) => setTimeout(r, Math.min(retryAfter, 10) * 1000));
        const retried = await api.start(actor, body, { idempotencyKey: key });
        expect([retried.response?.status, answerOf(retried).id], `retry after a 409: ${retried.response?.text ?? retried.error}`).toEqual([200, [...ids][0]]);
      }

      const successes = await settle(t, api, actor, [...ids]);
      expect(before - (await api.credits(actor)), `credits used by ${n} parallel requests with one key`).toBe(successes);
    },
  );

  conformance(
    'shares a key between the create endpoints: a sync repeat of an async start gives the same try-on, and the reverse',
    { covers: ['SYNC-SAME-CONTRACT-AS-CREATE', 'CREATE-IDEMPOTENCY-REPLAY', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'], needs: [], credits: 2, starts: 4, polls: 2 * pollsPerWait, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      const before = await api.credits(actor);
      t.reserve(2);

      const asyncKey = newIdempotencyKey();
      const asyncFirst = await api.start(actor, body, { idempotencyKey: asyncKey });
      expect(asyncFirst.response?.status, asyncFirst.response?.text).toBe(200);
      const syncRepeat = await api.start(actor, body, { idempotencyKey: asyncKey, sync: true });
      expect([200, 202], `sync repeat of an async start: ${syncRepeat.response?.text ?? syncRepeat.error}`).toContain(syncRepeat.response?.status);
      expect(answerOf(syncRepeat).id, 'sync repeat of an async start').toBe(idOf(asyncFirst));

      const syncKey = newIdempotencyKey();
      const syncFirst = await api.start(actor, body, { idempotencyKey: syncKey, sync: true });
      expect([200, 202], syncFirst.response?.text ?? syncFirst.error).toContain(syncFirst.response?.status);
      const asyncRepeat = await api.start(actor, body, { idempotencyKey: syncKey });
      expect(asyncRepeat.response?.status, `async repeat of a sync start: ${asyncRepeat.response?.text ?? asyncRepeat.error}`).toBe(200);
      expect(answerOf(asyncRepeat).id, 'async repeat of a sync start').toBe(idOf(syncFirst));

      const successes = await settle(t, api, actor, [idOf(asyncFirst), idOf(syncFirst)]);
      expect(before - (await api.credits(actor)), 'credits used by two keys, each repeated on the other endpoint').toBe(successes);
    },
  );

  conformance(
    'picks the try-on back up on a sync retry with the same key: same id, with its final state or 202',
    {
      covers: ['SYNC-SAME-KEY-PICKS-UP-AFTER-DROP', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'],
      needs: [],
      credits: 1,
      starts: 2,
      polls: pollsPerSlowWait,
      uploads: 2,
      timeoutMs: slowTestMs,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      // A slow generation makes the first answer a 202, so the retry has something to pick up.
      const slow = t.target.offers.get('scenarios') === true;
      const body = await idBody(api, actor, slow ? 'slow-generation' : undefined);
      const key = newIdempotencyKey();
      const before = await api.credits(actor);

      t.reserve(1);
      const first = await api.start(actor, body, { idempotencyKey: key, sync: true });
      expect([200, 202], first.response?.text ?? first.error).toContain(first.response?.status);
      const retry = await api.start(actor, body, { idempotencyKey: key, sync: true });
      expect([200, 202], retry.response?.text ?? retry.error).toContain(retry.response?.status);
      expect(answerOf(retry).id, 'the retry answers with the first request’s try-on').toBe(idOf(first));
      // A final state never goes back: a retry after a 200 gives that same final state.
      if (first.response?.status === 200) expect(seen(retry)).toEqual(seen(first));
      await t.vitest.annotate(`first sync answer ${first.response?.status}, retry ${retry.response?.status}`, 'observed');

      const successes = await settle(t, api, actor, [idOf(first)]);
      expect(before - (await api.credits(actor)), 'credits used by a sync request and its retry').toBe(successes);
    },
  );

  conformance(
    'never starts a second try-on for a key reused with a different body: a 4xx with the envelope, or a replay',
    { covers: ['CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'], needs: [], credits: 1, starts: 6, polls: pollsPerWait, uploads: 2 },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      const key = newIdempotencyKey();
      const before = await api.credits(actor);

      t.reserve(1);
      const first = await api.start(actor, body, { idempotencyKey: key });
      expect(first.response?.status, first.response?.text).toBe(200);
      const id = idOf(first);

      const variants: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
        ['a title added', { ...body, title: 'Another garment' }],
        ['person and garment swapped', { personImageId: body.garmentImageId, garmentImageId: body.personImageId, consent: true }],
      ];
      const outcomes: string[] = [];
      for (const [what, different] of variants) {
        for (const sync of [false, true]) {
          const ex = await api.start(actor, different, { idempotencyKey: key, sync });
          const status = ex.response?.status ?? 0;
          const answer = answerOf(ex);
          const where = `${sync ? 'POST /tryons/sync' : 'POST /tryons'} with ${what}: ${status || ex.error} ${ex.response?.text ?? ''}`;
          if (status >= 400 && status < 500) {
            expect(typeof answer.error === 'string' && typeof answer.code === 'string', `${where}: a 4xx without the {error, code} envelope`).toBe(true);
            outcomes.push(`${status} ${String(answer.code)}`);
          } else {
            expect([200, 202], `${where}: neither a 4xx nor a replay`).toContain(status);
            expect(answer.id, `${where}: a new try-on for a reused key`).toBe(id);
            outcomes.push('replay');
          }
        }
      }
      await t.vitest.annotate(`key reused with a different body: ${[...new Set(outcomes)].join(', ')}`, 'observed');

      // The key still belongs to the first try-on.
      expect(answerOf(await api.start(actor, body, { idempotencyKey: key })).id).toBe(id);
      const successes = await settle(t, api, actor, [id]);
      expect(before - (await api.credits(actor)), 'credits used by one key tried with other bodies').toBe(successes);
    },
  );

  const transient: readonly ScenarioName[] = ['start-failed', 'internal-error', 'unavailable'];
  conformance(
    'leaves a key unbound after 502 START_FAILED, 500 or 503: the same key with a fixed body starts normally',
    {
      covers: ['ERR-TRANSIENT-ERRORS-NOT-REPLAYED', 'ERR-START-FAILED', 'ERR-INTERNAL-ERROR', 'ERR-UNAVAILABLE'],
      needs: ['scenarios'],
      credits: transient.length,
      starts: 3 * transient.length,
      polls: transient.length * pollsPerWait,
      uploads: 2 + transient.length,
      timeoutMs: 180_000,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const fixed = await idBody(api, actor);
      const before = await api.credits(actor);
      t.reserve(transient.length);

      const ids: string[] = [];
      for (const scenario of transient) {
        const key = newIdempotencyKey();
        const failing = await api.start(actor, await idBody(api, actor, scenario), { idempotencyKey: key });
        const { status, code } = scenarios[scenario];
        expect([scenario, failing.response?.status, answerOf(failing).code], failing.response?.text ?? failing.error).toEqual([scenario, status, code]);
        const retried = await api.start(actor, fixed, { idempotencyKey: key });
        expect([scenario, retried.response?.status, answerOf(retried).status], `retry after ${status}: ${retried.response?.text ?? retried.error}`).toEqual([
          scenario,
          200,
          'pending',
        ]);
        const id = idOf(retried);
        // From now on the key is bound to the try-on the retry started.
        expect(answerOf(await api.start(actor, fixed, { idempotencyKey: key })).id, `replay after the retry (${scenario})`).toBe(id);
        ids.push(id);
      }
      const successes = await settle(t, api, actor, ids);
      expect(before - (await api.credits(actor)), 'credits used by three errors and their retries').toBe(successes);
    },
  );

  conformance(
    'records whether a key reused after 24 h + 1 s on the test clock replays or starts anew (both accepted)',
    { covers: ['CREATE-IDEMPOTENCY-RETENTION-IMPL-DEFINED'], credits: 2, starts: 2, polls: 2 * pollsPerWait, uploads: 2 },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      // URL inputs outlive the clock move; uploaded ids expire with it.
      const byUrl = t.target.offers.get('fixture-host') === true;
      const body = byUrl ? urlBody(api) : await idBody(api, actor);
      const key = newIdempotencyKey();
      t.reserve(2);

      const first = await api.start(actor, body, { idempotencyKey: key });
      expect(first.response?.status, first.response?.text).toBe(200);
      const id = idOf(first);
      const ids = [id];
      await api.waitFinal(actor, id);

      await control.advanceClock(24 * 3600 + 1);
      const later = await api.start(actor, body, { idempotencyKey: key });
      const status = later.response?.status;
      const answer = answerOf(later);
      let outcome: string;
      if (status === 200 && answer.id === id) outcome = 'replays the earlier try-on';
      else if (status === 200 && typeof answer.id === 'string') {
        outcome = 'starts a new try-on';
        ids.push(answer.id);
      } else if (!byUrl && status === 400 && answer.code === 'INVALID_IMAGE_ID') outcome = 'processes the request afresh (its uploaded ids had expired)';
      else throw new Error(`a key reused after 24 h got neither a replay nor a new start: ${status ?? later.error} ${later.response?.text ?? ''}`);
      await t.vitest.annotate(`after 24 h + 1 s a reused key ${outcome}`, 'observed');
      await settle(t, api, actor, ids, 2);
    },
  );
});
