/**
 * Idempotency-Key (spec: POST /tryons rules 3-4; Errors rule 2): a reused key returns the earlier
 * try-on and is never charged twice. What the spec leaves open (a reuse in flight, with another body,
 * after a long time or an error) is recorded, not judged.
 */
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { documentedLimits } from '../contract/rate-limits.ts';
import { scenarios, type ScenarioName } from '../fixtures/scenarios.ts';
import { Api, balanceIfRead, newIdempotencyKey, noBalance, pollsPerSlowWait, pollsPerWait, urlBody } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import { notAboutTheKey, refusalNamesKey } from './key-retention.ts';
import { precondition } from './rules.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

interface Answer {
  readonly id?: unknown;
  readonly status?: unknown;
  readonly pollUrl?: unknown;
  readonly resultUrl?: unknown;
  readonly code?: unknown;
  readonly error?: unknown;
}

/** A test that waits out a slow generation and two sync waits of about 55 s, at documented limits. */
const slowTestMs = 360_000;

const answerOf = (ex: Exchange): Answer => {
  const json = ex.response?.json;
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Answer) : {};
};
const said = (ex: Exchange): string =>
  `${ex.response?.status ?? ex.error} ${ex.response?.text.slice(0, 200) ?? ''}`.trim();

/**
 * Polls each try-on to its final state, gives back the part of the `reserved` credits that ended
 * without a charge, and returns the number of successes; inconclusive when one is still pending.
 */
async function settle(
  t: ConformanceContext,
  api: Api,
  actor: Actor,
  ids: readonly string[],
  reserved: number = ids.length,
): Promise<number> {
  const finals = await Promise.all(
    [...new Set(ids)].map(async (id) => answerOf(await api.waitFinal(actor, id)).status),
  );
  const successes = finals.filter((s) => s === 'success').length;
  t.target.budget.giveBack(Math.max(0, reserved - successes));
  precondition(
    finals.every((s) => s === 'success' || s === 'failed'),
    `a try-on did not reach a final state the run could read (${finals.join(', ')}), so the balance cannot be compared yet`,
  );
  return successes;
}

/**
 * The try-on id of a start the test needs (not the one it judges): a start that gives none (no
 * credit, a rate limit, a transient error) is a precondition of the run's own that did not hold.
 */
function startedId(ex: Exchange, what: string): string {
  const id = answerOf(ex).id;
  precondition(ex.response?.status === 200 && typeof id === 'string', `${what} gave no try-on: ${said(ex)}`);
  return id as string;
}

/**
 * Judges an answer of POST /tryons that returns try-on `id` (a replay): "Reusing an
 * Idempotency-Key returns the earlier try-on", with the create response's own fields: "status |
 * always `pending`", "pollUrl | `/api/v1/tryons/<id>`", resultUrl "Absent from the create response".
 * Only these fields are compared: the schema lets a target add others.
 */
function mustReplayCreate(t: ConformanceContext, what: string, ex: Exchange, id: string): void {
  const a = answerOf(ex);
  t.must('CREATE-IDEMPOTENCY-REPLAY', () =>
    expect({ [what]: [ex.response?.status ?? ex.error, a.id] }).toEqual({ [what]: [200, id] }),
  );
  t.must('CREATE-RESPONSE-STATUS-PENDING', () => expect({ [what]: a.status }).toEqual({ [what]: 'pending' }));
  t.must('RES-POLL-URL-VALUE', () => expect({ [what]: a.pollUrl }).toEqual({ [what]: `/api/v1/tryons/${id}` }));
  t.must('RES-RESULT-URL-ABSENT-FROM-CREATE', () => expect({ [what]: 'resultUrl' in a }).toEqual({ [what]: false }));
}

/** "one key can never be charged twice" (Errors rule 2): the balance fell by the successes of the key's one try-on, no more. */
async function mustChargeOnce(
  t: ConformanceContext,
  api: Api,
  actor: Actor,
  before: number | undefined,
  successes: number,
  what: string,
): Promise<void> {
  // Compared last, so that a run without a balance reading still judges everything else first.
  precondition(before !== undefined, noBalance(t.target));
  const used = before - (await api.credits(actor));
  t.must('CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE', () => expect({ [what]: used }).toEqual({ [what]: successes }));
}

describe('idempotency', () => {
  conformance(
    'replays the earlier try-on for a reused key and body: the same id, as a create answer, and no second charge',
    {
      value: 'ledger',
      covers: [
        'CREATE-IDEMPOTENCY-REPLAY',
        'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE',
        'CREATE-RESPONSE-STATUS-PENDING',
        'RES-POLL-URL-VALUE',
        'RES-RESULT-URL-ABSENT-FROM-CREATE',
      ],
      needs: [],
      credits: 1,
      starts: 3,
      polls: pollsPerWait,
      uploads: 2,
      typical: { finishes: 1, uploads: 0 },
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      const key = newIdempotencyKey();
      const before = await balanceIfRead(t.target, actor.key);

      t.reserve(1);
      const first = await api.start(actor, body, { idempotencyKey: key });
      const id = startedId(first, 'the first start');
      mustReplayCreate(t, 'replay while pending', await api.start(actor, body, { idempotencyKey: key }), id);

      const successes = await settle(t, api, actor, [id]);
      mustReplayCreate(t, 'replay after the final state', await api.start(actor, body, { idempotencyKey: key }), id);
      await mustChargeOnce(t, api, actor, before, successes, 'credits used by one key started once and replayed twice');
    },
  );

  conformance(
    'makes one try-on of N parallel requests with one key, charged once; a reuse afterwards returns it',
    {
      covers: [
        'CREATE-IDEMPOTENCY-REPLAY',
        'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE',
        'CREATE-IDEMPOTENCY-IN-FLIGHT-IMPL-DEFINED',
        'SYNC-SAME-CONTRACT-AS-CREATE',
      ],
      needs: [],
      credits: 1,
      starts: 8,
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
      const before = await balanceIfRead(t.target, actor.key);

      t.reserve(1);
      // Half on each create endpoint: "Same ... idempotency behaviour ... as `POST /tryons`".
      const answers = await Promise.all(
        Array.from({ length: n }, (_, i) => api.start(actor, body, { idempotencyKey: key, sync: i % 2 === 1 })),
      );
      const ids = new Set<string>();
      const others: string[] = [];
      for (const [i, ex] of answers.entries()) {
        const status = ex.response?.status;
        const id = answerOf(ex).id;
        if ((status === 200 || status === 202) && typeof id === 'string') ids.add(id);
        else
          others.push(
            `${i % 2 === 1 ? 'sync' : 'async'} ${status ?? ex.error} ${String(answerOf(ex).code ?? '')}${ex.response?.headers['retry-after'] ? ` Retry-After ${ex.response.headers['retry-after']}` : ''}`.trim(),
          );
      }
      // What a reuse gets while the first request is still creating the try-on is not shown: recorded.
      t.choose(
        'idempotency-in-flight',
        `${n} parallel requests with one key: ${n - others.length} answered with the try-on${others.length > 0 ? `, the others ${[...new Set(others)].join('; ')}` : ''}`,
        'CREATE-IDEMPOTENCY-IN-FLIGHT-IMPL-DEFINED',
      );
      // "Reusing an Idempotency-Key returns the earlier try-on instead of starting ... again": one try-on, on both endpoints.
      t.must('CREATE-IDEMPOTENCY-REPLAY', () =>
        expect({ [`try-ons made by ${n} parallel requests with one key`]: [...ids] }).toEqual({
          [`try-ons made by ${n} parallel requests with one key`]: [...ids].slice(0, 1),
        }),
      );

      // Every request has been answered, so nothing is in flight now: a reuse returns the one try-on.
      // A client honours Retry-After when it is given (Errors rule 4), so a late answer is waited out.
      let retried = await api.start(actor, body, { idempotencyKey: key });
      for (
        let attempt = 0;
        attempt < 3 && retried.response?.status !== 200 && /^\d+$/.test(retried.response?.headers['retry-after'] ?? '');
        attempt++
      ) {
        await new Promise((r) => setTimeout(r, Math.min(Number(retried.response?.headers['retry-after']), 10) * 1000));
        retried = await api.start(actor, body, { idempotencyKey: key });
      }
      const id = [...ids][0] ?? startedId(retried, 'the reuse after every parallel request was answered');
      t.must('CREATE-IDEMPOTENCY-REPLAY', () =>
        expect({
          'reuse after the parallel requests': [retried.response?.status ?? retried.error, answerOf(retried).id],
        }).toEqual({ 'reuse after the parallel requests': [200, id] }),
      );

      const successes = await settle(t, api, actor, [id]);
      await mustChargeOnce(t, api, actor, before, successes, `credits used by ${n} parallel requests with one key`);
    },
  );

  conformance(
    'shares a key between the create endpoints: a sync repeat of an async start gives the same try-on, and the reverse',
    {
      covers: ['SYNC-SAME-CONTRACT-AS-CREATE', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'],
      needs: [],
      credits: 2,
      starts: 4,
      polls: 2 * pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      const before = await balanceIfRead(t.target, actor.key);
      t.reserve(2);

      // "Same headers, body, rules, idempotency behaviour ... as `POST /tryons`", and "one key can
      // never be charged twice": a key is one key on both endpoints.
      const asyncKey = newIdempotencyKey();
      const asyncId = startedId(await api.start(actor, body, { idempotencyKey: asyncKey }), 'the async start');
      const syncRepeat = await api.start(actor, body, { idempotencyKey: asyncKey, sync: true });
      t.must('SYNC-SAME-CONTRACT-AS-CREATE', () =>
        expect({
          'sync repeat of an async start': [syncRepeat.response?.status ?? syncRepeat.error, answerOf(syncRepeat).id],
        }).toEqual({ 'sync repeat of an async start': [expect.toSatisfy((s) => s === 200 || s === 202), asyncId] }),
      );

      const syncKey = newIdempotencyKey();
      const syncFirst = await api.start(actor, body, { idempotencyKey: syncKey, sync: true });
      const syncId = answerOf(syncFirst).id;
      precondition(
        (syncFirst.response?.status === 200 || syncFirst.response?.status === 202) && typeof syncId === 'string',
        `the sync start gave no try-on: ${said(syncFirst)}`,
      );
      const asyncRepeat = await api.start(actor, body, { idempotencyKey: syncKey });
      t.must('SYNC-SAME-CONTRACT-AS-CREATE', () =>
        expect({
          'async repeat of a sync start': [asyncRepeat.response?.status ?? asyncRepeat.error, answerOf(asyncRepeat).id],
        }).toEqual({ 'async repeat of a sync start': [200, syncId] }),
      );

      const successes = await settle(t, api, actor, [asyncId, syncId]);
      await mustChargeOnce(
        t,
        api,
        actor,
        before,
        successes,
        'credits used by two keys, each repeated on the other endpoint',
      );
    },
  );

  conformance(
    'picks the try-on back up on a sync retry with the same key: the same id, final or still pending',
    {
      covers: ['SYNC-SAME-KEY-PICKS-UP-AFTER-DROP', 'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE'],
      needs: [],
      credits: 1,
      starts: 2,
      polls: pollsPerSlowWait,
      uploads: 2,
      timeoutMs: slowTestMs,
      typical: { waits: ['slow-generation'] },
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      // A slow generation makes the first answer a 202, so the retry has something to pick up.
      const slow = t.target.offers.get('scenarios') === true;
      const body = await idBody(api, actor, slow ? 'slow-generation' : undefined);
      const key = newIdempotencyKey();
      const before = await balanceIfRead(t.target, actor.key);

      t.reserve(1);
      const first = await api.start(actor, body, { idempotencyKey: key, sync: true });
      const id = answerOf(first).id;
      precondition(
        (first.response?.status === 200 || first.response?.status === 202) && typeof id === 'string',
        `the first sync request gave no try-on: ${said(first)}`,
      );
      const retry = await api.start(actor, body, { idempotencyKey: key, sync: true });
      // "repeating the request with the same Idempotency-Key picks the try-on back up without a second charge".
      t.must('SYNC-SAME-KEY-PICKS-UP-AFTER-DROP', () =>
        expect({ 'sync retry with the same key': [retry.response?.status ?? retry.error, answerOf(retry).id] }).toEqual(
          { 'sync retry with the same key': [expect.toSatisfy((s) => s === 200 || s === 202), id] },
        ),
      );
      t.choose(
        'sync-pick-up',
        `first sync answer ${first.response?.status} ${String(answerOf(first).status)}, retry ${retry.response?.status} ${String(answerOf(retry).status)}`,
        'SYNC-SAME-KEY-PICKS-UP-AFTER-DROP',
      );

      const successes = await settle(t, api, actor, [id]);
      await mustChargeOnce(t, api, actor, before, successes, 'credits used by a sync request and its retry');
    },
  );

  conformance(
    'never charges a key twice when it is reused with a different body; the key still returns its try-on',
    {
      covers: [
        'CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED',
        'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE',
        'CREATE-IDEMPOTENCY-REPLAY',
        'ERR-ENVELOPE-SHAPE',
      ],
      needs: [],
      credits: 1,
      starts: 6,
      polls: pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      const body = await idBody(api, actor);
      const key = newIdempotencyKey();
      const before = await balanceIfRead(t.target, actor.key);

      t.reserve(1);
      const id = startedId(await api.start(actor, body, { idempotencyKey: key }), 'the first start');

      const variants: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
        ['a title added', { ...body, title: 'Another garment' }],
        [
          'person and garment swapped',
          { personImageId: body.garmentImageId, garmentImageId: body.personImageId, consent: true },
        ],
      ];
      const outcomes: string[] = [];
      const extra = new Set<string>();
      for (const [what, different] of variants) {
        for (const sync of [false, true]) {
          const ex = await api.start(actor, different, { idempotencyKey: key, sync });
          const status = ex.response?.status;
          const answer = answerOf(ex);
          const where = `${sync ? 'POST /tryons/sync' : 'POST /tryons'} with ${what}`;
          if (status !== undefined && status >= 400) {
            // "Every error response is JSON of the shape `{ "error": string, "code": string }`".
            t.must('ERR-ENVELOPE-SHAPE', () =>
              expect({ [where]: typeof answer.error === 'string' && typeof answer.code === 'string' }).toEqual({
                [where]: true,
              }),
            );
            outcomes.push(`${status} ${String(answer.code)}`);
          } else if (typeof answer.id === 'string' && answer.id !== id) {
            outcomes.push('a new try-on');
            extra.add(answer.id);
          } else outcomes.push(answer.id === id ? 'the earlier try-on' : `${status ?? ex.error}`);
        }
      }
      // "what happens when a key is reused with a different body: not shown" (POST /tryons rule 4).
      t.choose(
        'idempotency-different-body',
        [...new Set(outcomes)].join(', '),
        'CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED',
      );

      // "Reusing an Idempotency-Key returns the earlier try-on": with the first body, the key gives its try-on.
      const again = await api.start(actor, body, { idempotencyKey: key });
      t.must('CREATE-IDEMPOTENCY-REPLAY', () =>
        expect({
          'the key with its first body again': [again.response?.status ?? again.error, answerOf(again).id],
        }).toEqual({ 'the key with its first body again': [200, id] }),
      );
      // "one key can never be charged twice": whatever the other bodies got, the key cost at most its one try-on.
      const [successes] = await Promise.all([settle(t, api, actor, [id]), settle(t, api, actor, [...extra], 0)]);
      await mustChargeOnce(t, api, actor, before, successes, 'credits used by one key tried with other bodies');
    },
  );

  const transient: readonly ScenarioName[] = ['start-failed', 'internal-error', 'unavailable'];
  conformance(
    'never answers a retry of 502 START_FAILED, 500 or 503 with the stored error: a retry with the same key and a fixed body is processed',
    {
      covers: [
        'ERR-TRANSIENT-ERRORS-NOT-REPLAYED',
        'ERR-START-FAILED',
        'ERR-INTERNAL-ERROR',
        'ERR-UNAVAILABLE',
        'CREATE-IDEMPOTENCY-REPLAY',
      ],
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
      t.reserve(transient.length);

      const ids: string[] = [];
      const after: string[] = [];
      for (const scenario of transient) {
        const key = newIdempotencyKey();
        const { status, code } = scenarios[scenario];
        // The answer under test comes as it is; any other transient answer is retried like a client.
        const failing = await api.start(actor, await idBody(api, actor, scenario), {
          idempotencyKey: key,
          keep: [status],
        });
        const requirement =
          scenario === 'start-failed'
            ? 'ERR-START-FAILED'
            : scenario === 'internal-error'
              ? 'ERR-INTERNAL-ERROR'
              : 'ERR-UNAVAILABLE';
        // "502 | START_FAILED", "500 | INTERNAL_ERROR", "503 | UNAVAILABLE" (Errors); the scenario marker asks for each.
        t.must(requirement, () =>
          expect({ scenario, answer: [failing.response?.status ?? failing.error, answerOf(failing).code] }).toEqual({
            scenario,
            answer: [status, code],
          }),
        );
        const retried = await api.start(actor, fixed, { idempotencyKey: key });
        const answer = answerOf(retried);
        // "Retry with the same Idempotency-Key on 429, 500, 502, 503" (Errors rule 2): the error made no
        // try-on, so the retry is processed, never answered with the stored error. The retry's body
        // differs from the failed one (only a fixed body can succeed), and what a key reused with a
        // different body gets is not shown, so a refusal of the reuse is recorded, not judged.
        t.must('ERR-TRANSIENT-ERRORS-NOT-REPLAYED', () =>
          expect({
            [`retry after ${status} ${code}`]: [retried.response?.status ?? retried.error, answer.code],
          }).not.toEqual({ [`retry after ${status} ${code}`]: [status, code] }),
        );
        after.push(
          `after ${status} ${code}: ${retried.response?.status === 200 ? 'the fixed body started' : `${retried.response?.status ?? retried.error} ${String(answer.code)}`}`,
        );
        if (retried.response?.status === 200 && typeof answer.id === 'string') {
          ids.push(answer.id);
          // From now on the key is bound to the try-on the retry started: "Reusing an Idempotency-Key returns the earlier try-on".
          const again = await api.start(actor, fixed, { idempotencyKey: key });
          t.must('CREATE-IDEMPOTENCY-REPLAY', () =>
            expect({
              [`replay after the retry (${scenario})`]: [again.response?.status ?? again.error, answerOf(again).id],
            }).toEqual({ [`replay after the retry (${scenario})`]: [200, answer.id] }),
          );
        }
      }
      t.choose('key-after-transient-error', after.join('; '), 'ERR-TRANSIENT-ERRORS-NOT-REPLAYED');
      await settle(t, api, actor, ids, transient.length);
    },
  );

  conformance(
    'records whether a key reused after 24 h + 1 s on the test clock replays or starts anew',
    {
      covers: ['CREATE-IDEMPOTENCY-RETENTION-IMPL-DEFINED'],
      credits: 2,
      starts: 2,
      polls: 2 * pollsPerWait,
      uploads: 2,
    },
    async (t) => {
      const control = t.target.control ?? t.skip('needs test control');
      const api = new Api(t.target);
      const actor = await t.ownAccount();
      // URL inputs outlive the clock move; uploaded ids expire with it.
      const byUrl = t.target.offers.get('fixture-host') === true;
      const body = byUrl ? urlBody(api) : await idBody(api, actor);
      const key = newIdempotencyKey();
      t.reserve(2);

      const id = startedId(await api.start(actor, body, { idempotencyKey: key }), 'the first start');
      const ids = [id];
      await api.waitFinal(actor, id);

      await control.advanceClock(24 * 3600 + 1);
      const later = await api.start(actor, body, { idempotencyKey: key });
      const status = later.response?.status;
      const answer = answerOf(later);
      // "Idempotency: how long keys are kept ...: not shown" (POST /tryons rule 4): whatever happens is recorded.
      let outcome: string;
      if (status === 200 && answer.id === id) outcome = 'replays the earlier try-on';
      else if (status === 200 && typeof answer.id === 'string') {
        outcome = 'starts a new try-on';
        ids.push(answer.id);
      } else {
        outcome = `answers ${status ?? later.error} ${String(answer.code ?? '')}`.trim();
        if (!refusalNamesKey(answer.code)) {
          await settle(t, api, actor, ids, 2).catch(() => undefined);
          t.inconclusive(notAboutTheKey(outcome));
        }
      }
      t.choose(
        'idempotency-retention',
        `a key reused after 24 h + 1 s ${outcome}`,
        'CREATE-IDEMPOTENCY-RETENTION-IMPL-DEFINED',
      );
      await settle(t, api, actor, ids, 2).catch(() => undefined);
    },
  );
});
