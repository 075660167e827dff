/**
 * Spec: Limits; POST /tryons rule 5; Errors (RATE_LIMITED). Each test takes a fresh account at the documented
 * limits, fills one window on purpose (`pace: false`), and checks the 429, its Retry-After, and that waiting
 * that long lets the next request through. Recorded, never judged: whether refused starts count toward the
 * window, the Retry-After value, fixed or rolling windows; a burst a fixed window let over is repeated once,
 * and the repeat is judged.
 */
import { describe, expect, inject } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { makeGarmentImage } from '../fixtures/images.ts';
import { progressEvents } from '../shared/progress-events.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { Api } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import { runFacts } from './run-facts.ts';
import type { Actor } from './target.ts';
import { limitedBelowDeclared, limitToReach, noteOverStarts, ordinal, takeRecentOverStarts } from './limit-reach.ts';
import { idBody } from './uploaded-inputs.ts';

const statusOf = (ex: Exchange) => ex.response?.status ?? ex.error;
const said = (ex: Exchange): string => `${ex.response?.status ?? ex.error} ${ex.response?.text.slice(0, 200) ?? ''}`;

/** A start that is refused before it could cost anything: every target answers it without a charge. */
const refusedBody = { personImageId: 'img_rate_limit_probe', garmentImageId: 'img_rate_limit_probe', consent: false };

/**
 * Real starts fill the window only on a target with test control (fresh accounts): up to two bursts of 13,
 * and one more start.
 */
const fillCredits = inject('suiteConfig').control !== undefined ? 27 : 0;

/** The starts limit the raised-limit test gives its account: over the documented 12. */
const raisedStarts = 14;

/**
 * A fresh account (test control), or else the primary one once its starts window is empty: the
 * earlier tests' starts must not count toward the 12 this test sends.
 */
async function accountAtDocumentedLimits(t: ConformanceContext): Promise<Actor> {
  if (t.target.control) return t.target.freshAccount();
  await t.target.pacer.idle(t.target.primary.key, 'starts');
  return t.target.primary;
}

async function waitSeconds(t: ConformanceContext, seconds: number): Promise<void> {
  if (t.target.control) await t.target.control.advanceClock(seconds);
  else {
    progressEvents.emit('wait', {
      what: `the Retry-After of ${Math.ceil(seconds)} s the target named`,
      ms: seconds * 1000,
      exact: true,
    });
    await new Promise((r) => setTimeout(r, seconds * 1000));
  }
}

/**
 * The longest Retry-After a 429 over a per-minute limit may name: within its minute the window lets a
 * request through again, plus a few seconds for rounding up and for a server that adds a margin.
 */
const windowSeconds = 60;
const marginSeconds = 5;

/**
 * Limits: "Over a rate limit the response is 429 `RATE_LIMITED` with a `Retry-After` header in seconds."
 * `ex` must be a 429 this test provoked by going over a per-minute limit (never the upload storage quota).
 */
function expectRateLimited(t: ConformanceContext, rule: RequirementId, ex: Exchange, what: string): number {
  t.must(rule, () => expect(statusOf(ex), `${what}: ${said(ex)}`).toBe(429));
  t.must('ERR-RATE-LIMITED', () =>
    expect((ex.response?.json as { code?: unknown } | undefined)?.code, `${what}: ${said(ex)}`).toBe('RATE_LIMITED'),
  );
  const header = ex.response?.headers['retry-after'];
  // "in seconds": RFC 9110 delay-seconds, a non-negative integer. Below the window its size is the target's:
  // no tightness is promised, so it is recorded.
  t.must('LIMIT-429-RETRY-AFTER', () => expect(header ?? '(none)', `Retry-After of ${what}`).toMatch(/^\d+$/));
  t.choose('retry-after', `${header} s on ${what}`, 'LIMIT-RETRY-AFTER-WITHIN-WINDOW');
  // Seconds for a limit counted "per minute per account": a wait past the minute is not that wait in seconds
  // (54000 for 54 s is one in milliseconds). A SHOULD: reported, never binding; the test stops before waiting it.
  t.must('LIMIT-RETRY-AFTER-WITHIN-WINDOW', () =>
    expect(
      Number(header),
      `Retry-After of ${what}: at most the ${windowSeconds} s window plus ${marginSeconds} s`,
    ).toBeLessThanOrEqual(windowSeconds + marginSeconds),
  );
  return Number(header);
}

/**
 * Runs `burst` (which fills one window and sends one request over it) up to twice: a fixed window
 * may let the first burst over when it crosses the window's boundary, so only the second is judged.
 */
async function overTheLimit<T extends { readonly over: Exchange }>(
  t: ConformanceContext,
  point: string,
  burst: () => Promise<T>,
): Promise<T> {
  const first = await burst();
  if (statusOf(first.over) === 429) return first;
  t.choose(
    point,
    `one burst let over the limit (${statusOf(first.over)}), as a fixed window crossing its boundary may; the repeat was judged`,
  );
  const began = Date.now();
  const repeat = await burst();
  if (point === 'starts-window' && statusOf(repeat.over) !== 429)
    learnStartsNotLimited(
      `a repeated burst of start requests of one account over its limit (the last answered ${statusOf(repeat.over)})`,
      began,
    );
  return repeat;
}

/**
 * The run learns that the starts window of one account let more than 12 requests through (never after a
 * burst that a fixed window may have let over, only after its repeat), so later tests that need the 429
 * do not fill it again.
 */
function learnStartsNotLimited(requests: string, began: number): void {
  const seconds = Math.ceil((Date.now() - began) / 1000);
  if (seconds <= windowSeconds) runFacts().learn('starts-not-limited', `${requests}, within ${seconds} s`);
}

/** Ends a test that needs a 429 over the starts limit, once the run learned that the target did not give one. */
function needsStartsLimited(t: ConformanceContext): void {
  t.unlessLearned('starts-not-limited', 'this test needs a 429 over the starts limit');
}

/** The answers of `exchanges`, counted: `12× 403 CONSENT_REQUIRED, 1× 400 INVALID_IMAGE_ID`. */
function tally(exchanges: readonly Exchange[]): string {
  const counts = new Map<string, number>();
  for (const ex of exchanges) {
    const code = (ex.response?.json as { code?: unknown } | undefined)?.code;
    const key = ex.response
      ? `${ex.response.status}${typeof code === 'string' ? ` ${code}` : ''}`
      : ((ex.error ?? 'no answer').split(':')[0] ?? 'no answer');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n}× ${k}`).join(', ');
}

/**
 * The first request an account made a moment ago has ever sent: a 429 can only come from requests
 * of other accounts ("12 per minute per account": each account's window is its own).
 */
function firstOfFreshAccount(t: ConformanceContext, ex: Exchange): void {
  t.must('LIMIT-RATES-PER-ACCOUNT', () =>
    expect(statusOf(ex), `the first start request of a new account: ${said(ex)}`).not.toBe(429),
  );
}

/**
 * Fills the starts window of `actor` with `n` requests alternating between the two create
 * endpoints, and sends one more. Refused requests are tried first; when the target does not count
 * them (it may: the limit is on "try-on starts"), real starts fill a fresh account's window.
 */
async function fillStarts(
  t: ConformanceContext,
  api: Api,
  actor: Actor,
  n: number,
  endpoints: 'async' | 'both',
): Promise<{ actor: Actor; body: unknown; over: Exchange }> {
  // With test control the actor is an account made for this burst: it has sent nothing before.
  const fresh = t.target.control !== undefined;
  const sync = (i: number) => endpoints === 'both' && i % 2 === 1;
  const refused: Exchange[] = [];
  const began = Date.now();
  for (let i = 0; i < n; i++) {
    const ex = await api.start(actor, refusedBody, { pace: false, sync: sync(i) });
    refused.push(ex);
    if (i === 0 && fresh) firstOfFreshAccount(t, ex);
    // "12 try-on starts per minute per account": nothing in the first 12 of a fresh window is over it.
    limitedBelowDeclared(t, 'starts', i, n, statusOf(ex));
    t.must('LIMIT-STARTS-12-PER-MINUTE', () =>
      expect(statusOf(ex), `request ${i + 1} of ${n} in a fresh window: ${said(ex)}`).not.toBe(429),
    );
  }
  const probe = await api.start(actor, refusedBody, { pace: false, sync: sync(n) });
  refused.push(probe);
  if (statusOf(probe) === 429) {
    t.choose('starts-window-counts', 'refused start requests count toward the 12', 'LIMIT-STARTS-12-PER-MINUTE');
    return { actor, body: refusedBody, over: probe };
  }
  // What was seen, not why: the limit is on "try-on starts", so a target may rightly not count
  // refused requests, and only accepted starts can show whether it limits at all.
  const seen = `${refused.length} refused start requests in a row were not limited (answers: ${tally(refused)})`;
  t.choose('starts-window-counts', `refused start requests not counted: ${seen}`, 'LIMIT-STARTS-12-PER-MINUTE');
  if (!t.target.control) {
    // Without fresh accounts, the next test that fills this window would send the same requests and see the same.
    learnStartsNotLimited(`${refused.length} start requests of one account (answers: ${tally(refused)})`, began);
    t.skip(
      `${seen}. The limit is on "try-on starts", which refused requests may rightly not be; whether the target limits accepted starts was not tried: reaching the limit takes ${n + 1} accepted starts on the primary account, up to ${n + 1} of its credits (with test control, fresh accounts fill the window)`,
    );
  }
  t.reserve(n + 1);
  const freshActor = await t.target.freshAccount();
  const body = await idBody(api, freshActor);
  for (let i = 0; i < n; i++) {
    const ex = await api.start(freshActor, body, { pace: false, sync: sync(i) });
    if (i === 0) firstOfFreshAccount(t, ex);
    if (statusOf(ex) !== 429 && statusOf(ex) !== 200 && statusOf(ex) !== 202)
      t.inconclusive(`a valid start answered ${said(ex)}, so the window could not be filled`);
    limitedBelowDeclared(t, 'starts', i, n, statusOf(ex));
    t.must('LIMIT-STARTS-12-PER-MINUTE', () =>
      expect(statusOf(ex), `start ${i + 1} of ${n} in a fresh window: ${said(ex)}`).not.toBe(429),
    );
  }
  return { actor: freshActor, body, over: await api.start(freshActor, body, { pace: false, sync: sync(n) }) };
}

describe('rate limits', () => {
  conformance(
    'answers the 13th start within a minute with 429 RATE_LIMITED and a Retry-After in seconds',
    {
      covers: [
        'LIMIT-STARTS-12-PER-MINUTE',
        'LIMIT-429-RETRY-AFTER',
        'LIMIT-RETRY-AFTER-WITHIN-WINDOW',
        'ERR-RATE-LIMITED',
      ],
      needs: [],
      starts: 28,
      credits: fillCredits,
      timeoutMs: 300_000,
      typical: { starts: 13, emptiesStartsWindow: true },
    },
    async (t) => {
      const api = new Api(t.target);
      const n = limitToReach(t, 'starts');
      const filled = await overTheLimit(t, 'starts-window', async () =>
        fillStarts(t, api, await accountAtDocumentedLimits(t), n, 'async'),
      );
      // Limits: "Starting try-ons | 12 per minute per account"; over it, "429 `RATE_LIMITED`".
      const retryAfter = expectRateLimited(t, 'LIMIT-STARTS-12-PER-MINUTE', filled.over, `the ${ordinal(n + 1)} start`);
      noteOverStarts(filled, retryAfter);
    },
  );

  conformance(
    'shares the starts window between POST /tryons and POST /tryons/sync',
    {
      covers: ['LIMIT-STARTS-12-PER-MINUTE', 'SYNC-SAME-CONTRACT-AS-CREATE'],
      needs: ['test-control'],
      starts: 30,
      credits: fillCredits,
    },
    async (t) => {
      needsStartsLimited(t);
      const api = new Api(t.target);
      const n = limitToReach(t, 'starts');
      const filled = await overTheLimit(t, 'starts-window', async () =>
        fillStarts(t, api, await t.target.freshAccount(), n, 'both'),
      );
      // "12 per minute per account, shared by `POST /tryons` and `POST /tryons/sync`": over it, both refuse.
      t.must('LIMIT-STARTS-12-PER-MINUTE', () =>
        expect(statusOf(filled.over), `the ${ordinal(n + 1)} start (POST /tryons): ${said(filled.over)}`).toBe(429),
      );
      const sync = await api.start(filled.actor, filled.body, { pace: false, sync: true });
      t.must('LIMIT-STARTS-12-PER-MINUTE', () =>
        expect(statusOf(sync), `a ${ordinal(n + 2)} start on POST /tryons/sync: ${said(sync)}`).toBe(429),
      );
    },
  );

  conformance(
    'lets a start through once the client has waited Retry-After',
    {
      covers: ['LIMIT-429-RETRY-AFTER', 'LIMIT-RETRY-AFTER-WITHIN-WINDOW', 'ERR-CLIENT-HONOURS-RETRY-AFTER'],
      needs: [],
      starts: 28,
      credits: fillCredits,
      timeoutMs: 300_000,
      // Without test control it follows the 13th-start test and waits out that 429's Retry-After.
      typical: { starts: 1, waitsSeconds: 60 },
    },
    async (t) => {
      needsStartsLimited(t);
      const api = new Api(t.target);
      const n = limitToReach(t, 'starts');
      // The 429 the test before provoked serves, while its Retry-After runs: waiting out its rest is the same wait.
      const recent = takeRecentOverStarts(t);
      const filled =
        recent?.filled ??
        (await overTheLimit(t, 'starts-window', async () =>
          fillStarts(t, api, await accountAtDocumentedLimits(t), n, 'async'),
        ));
      const over = `the ${ordinal(n + 1)} start${recent ? ' (of the test before, whose Retry-After was still running)' : ''}`;
      const wait = expectRateLimited(t, 'LIMIT-STARTS-12-PER-MINUTE', filled.over, over);
      // Errors: "429 | RATE_LIMITED | too many requests | wait `Retry-After` seconds"; nothing is sent before
      // it has passed.
      await waitSeconds(t, recent ? Math.max(0, recent.at / 1000 + wait - Date.now() / 1000) : wait);
      const after = await api.start(filled.actor, filled.body, { pace: false });
      t.must('LIMIT-429-RETRY-AFTER', () =>
        expect(statusOf(after), `a start ${wait} s (Retry-After) after the 429: ${said(after)}`).not.toBe(429),
      );
    },
  );

  conformance(
    'limits polls to 60 a minute and uploads to 30 a minute per account',
    {
      covers: [
        'LIMIT-POLLS-60-PER-MINUTE',
        'LIMIT-UPLOADS-30-PER-MINUTE',
        'LIMIT-429-RETRY-AFTER',
        'LIMIT-RETRY-AFTER-WITHIN-WINDOW',
      ],
      needs: ['test-control'],
      polls: 122,
      uploads: 62,
    },
    async (t) => {
      const api = new Api(t.target);
      const pollLimit = limitToReach(t, 'polls');
      const uploadLimit = limitToReach(t, 'uploads');
      const polls = await overTheLimit(t, 'polls-window', async () => {
        const actor = await t.target.freshAccount();
        for (let i = 0; i < pollLimit; i++) {
          const ex = await api.get(actor, `ton_rate_limit_probe_${i}`, { pace: false });
          // GET /tryons/{id}: "Rate limit: 60 requests per minute per account".
          limitedBelowDeclared(t, 'polls', i, pollLimit, statusOf(ex));
          t.must('LIMIT-POLLS-60-PER-MINUTE', () =>
            expect(statusOf(ex), `poll ${i + 1} of ${pollLimit} in a fresh window: ${said(ex)}`).not.toBe(429),
          );
        }
        return { over: await api.get(actor, `ton_rate_limit_probe_${pollLimit}`, { pace: false }) };
      });
      expectRateLimited(t, 'LIMIT-POLLS-60-PER-MINUTE', polls.over, `the ${ordinal(pollLimit + 1)} poll`);

      const png = await makeGarmentImage({ format: 'png', width: 64, height: 64 });
      const uploads = await overTheLimit(t, 'uploads-window', async () => {
        const actor = await t.target.freshAccount();
        for (let i = 0; i < uploadLimit; i++) {
          const ex = await api.upload(actor, png, { filename: 'tiny.png', contentType: 'image/png', pace: false });
          // POST /images: "Rate limit: 30 uploads per minute per account".
          limitedBelowDeclared(t, 'uploads', i, uploadLimit, statusOf(ex));
          t.must('LIMIT-UPLOADS-30-PER-MINUTE', () =>
            expect(statusOf(ex), `upload ${i + 1} of ${uploadLimit} in a fresh window: ${said(ex)}`).not.toBe(429),
          );
          if (statusOf(ex) !== 200)
            t.inconclusive(`upload ${i + 1} answered ${said(ex)}, so the window could not be filled with uploads`);
        }
        return { over: await api.upload(actor, png, { filename: 'tiny.png', contentType: 'image/png', pace: false }) };
      });
      expectRateLimited(t, 'LIMIT-UPLOADS-30-PER-MINUTE', uploads.over, `the ${ordinal(uploadLimit + 1)} upload`);
    },
  );

  conformance(
    'keeps the limits per account: a limited account does not limit another',
    { covers: ['LIMIT-RATES-PER-ACCOUNT'], needs: ['test-control'], starts: 28, credits: fillCredits },
    async (t) => {
      needsStartsLimited(t);
      const api = new Api(t.target);
      const n = limitToReach(t, 'starts');
      const filled = await overTheLimit(t, 'starts-window', async () =>
        fillStarts(t, api, await t.target.freshAccount(), n, 'async'),
      );
      if (statusOf(filled.over) !== 429)
        t.inconclusive(
          `the ${ordinal(n + 1)} start was not limited (${said(filled.over)}), so there is no limited account to compare with`,
        );
      const other = await t.target.freshAccount();
      const ex = await api.start(other, refusedBody, { pace: false });
      // Limits: "12 per minute per account": another account's window is its own.
      t.must('LIMIT-RATES-PER-ACCOUNT', () =>
        expect(statusOf(ex), `another account's first start: ${said(ex)}`).not.toBe(429),
      );
    },
  );

  conformance(
    `lets an account whose start limit was raised to ${raisedStarts} make ${raisedStarts} real starts within a minute, and limits the next`,
    {
      covers: ['LIMIT-STARTS-RAISED-ON-REQUEST'],
      needs: ['test-control'],
      starts: 2 * (raisedStarts + 1),
      credits: 2 * (raisedStarts + 1),
    },
    async (t) => {
      const api = new Api(t.target);
      const control = t.target.control ?? t.skip('needs test control');
      const { over } = await overTheLimit(t, 'starts-window', async () => {
        // "raising it is by request to the provider": test control stands in for the request.
        const actor = await t.target.freshAccount({ starts: raisedStarts });
        if (actor.accountId) await control.setCredits(actor.accountId, raisedStarts + 5);
        const body = await idBody(api, actor);
        t.reserve(raisedStarts + 1);
        for (let i = 0; i < raisedStarts; i++) {
          // Valid starts with credit available: each one is a try-on start that every target counts.
          const ex = await api.start(actor, body, { pace: false });
          if (statusOf(ex) !== 200 && statusOf(ex) !== 429) t.inconclusive(`a valid start answered ${said(ex)}`);
          t.must('LIMIT-STARTS-RAISED-ON-REQUEST', () =>
            expect(
              statusOf(ex),
              `start ${i + 1} of ${raisedStarts} at a raised limit of ${raisedStarts}: ${said(ex)}`,
            ).toBe(200),
          );
        }
        return { over: await api.start(actor, body, { pace: false }) };
      });
      // "a raised limit then applies instead of 12 per minute": the start after it is over.
      t.must('LIMIT-STARTS-RAISED-ON-REQUEST', () =>
        expect(statusOf(over), `start ${raisedStarts + 1} at a raised limit of ${raisedStarts}: ${said(over)}`).toBe(
          429,
        ),
      );
    },
  );
});
