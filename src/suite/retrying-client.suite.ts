/**
 * A client that retries as the spec tells it (Limits; Errors rule 2: "Retry with the same Idempotency-Key on
 * 429"; rule 4: "when `Retry-After` is present, wait that long instead") starts try-ons at the documented limit
 * in random bursts over several windows; after every 429 it waits Retry-After and sends the same request,
 * which must get through, every time. Windows and which requests count are the target's own; a server whose
 * refused requests keep the window full while Retry-After says otherwise locks such a client out.
 */
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { Api, newIdempotencyKey } from './api.ts';
import { conformance, type ConformanceContext } from './conformance.ts';
import type { Actor } from './target.ts';
import { idBody } from './uploaded-inputs.ts';

const statusOf = (ex: Exchange) => ex.response?.status ?? ex.error;
const said = (ex: Exchange): string => `${ex.response?.status ?? ex.error} ${ex.response?.text.slice(0, 200) ?? ''}`;

/** The documented starts limit: "Starting try-ons | 12 per minute per account". */
const documentedStarts = 12;
/** Starts one run of the property sends at most (bursts and their retries). */
const maxStartsPerRun = 48;
const numRuns = 3;

interface Step {
  /** Seconds the client waits (test clock) before its burst. */
  readonly pause: number;
  /** Starts it sends one after the other. */
  readonly burst: number;
  /** The account's start limit from this step on (test control), as when a provider changes it on request. */
  readonly limit?: number;
}

/**
 * Every schedule opens with two full windows (13 starts at once, then 13 more 30 s later: the
 * second window is full while requests of the first are still in the log); then, in a fresh window,
 * starts at three times 10 s apart with the limit lowered to 2 before the third: the window holds 6,
 * so the wait must outlast the 4 oldest, not the oldest alone; then 0-3 random bursts of up to 13
 * starts after pauses shorter or longer than a window, at the documented limit again.
 */
const opening: readonly Step[] = [
  { pause: 0, burst: documentedStarts + 1 },
  { pause: 30, burst: documentedStarts + 1 },
  { pause: 75, burst: 3 },
  { pause: 10, burst: 3 },
  { pause: 10, burst: 1, limit: 2 },
  { pause: 0, burst: 0, limit: documentedStarts },
];
const schedule = fc.array(
  fc.record({
    pause: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 21, max: 75 })),
    burst: fc.integer({ min: 1, max: documentedStarts + 1 }),
  }),
  {
    maxLength: 3,
  },
);

const limitNote = (step: Step): string =>
  step.limit === undefined ? '' : ` (the limit just lowered to ${step.limit} a minute)`;

interface Seen {
  waits: number;
  starts: number;
  retryAfters: string[];
}

/** One client over one schedule, on an account of its own at the documented starts limit. */
async function behaveAsTold(t: ConformanceContext, api: Api, steps: readonly Step[], seen: Seen): Promise<void> {
  const control = t.target.control ?? t.skip('needs test control');
  const actor: Actor = await t.target.freshAccount({ starts: documentedStarts });
  // With test control credits are the run's own: enough that no start is refused for them.
  if (actor.accountId) await control.setCredits(actor.accountId, 2 * maxStartsPerRun);
  const body = await idBody(api, actor);
  let sent = 0;
  for (const [s, step] of steps.entries()) {
    if (step.pause > 0) await control.advanceClock(step.pause);
    if (step.limit !== undefined && actor.accountId)
      await control.setLimits(actor.accountId, { startsPerMinute: step.limit });
    for (let i = 0; i < step.burst && sent < maxStartsPerRun - 1; i++) {
      const key = newIdempotencyKey();
      const ex = await api.start(actor, body, { pace: false, idempotencyKey: key });
      sent++;
      seen.starts++;
      if (statusOf(ex) !== 429) {
        if (statusOf(ex) !== 200) t.inconclusive(`a valid start answered ${said(ex)}`);
        continue;
      }
      const header = ex.response?.headers['retry-after'];
      // Limits: "Over a rate limit the response is 429 `RATE_LIMITED` with a `Retry-After` header in seconds."
      t.must('LIMIT-429-RETRY-AFTER', () =>
        expect(
          header ?? '(none)',
          `Retry-After of the 429 to start ${i + 1} of burst ${s + 1}${limitNote(step)}`,
        ).toMatch(/^\d+$/),
      );
      seen.retryAfters.push(header!);
      // Errors: "wait `Retry-After` seconds"; rule 2: "Retry with the same Idempotency-Key on 429".
      await control.advanceClock(Number(header));
      seen.waits++;
      const retry = await api.start(actor, body, { pace: false, idempotencyKey: key });
      sent++;
      seen.starts++;
      t.must('LIMIT-429-RETRY-AFTER', () =>
        expect(
          statusOf(retry),
          `the same start sent again ${header} s (Retry-After) after its 429, in burst ${s + 1} of ${steps.length}` +
            `${limitNote(step)}: ${said(retry)}`,
        ).not.toBe(429),
      );
      if (statusOf(retry) !== 200) t.inconclusive(`a valid start, retried after Retry-After, answered ${said(retry)}`);
    }
  }
}

describe('a client that retries as told', () => {
  conformance(
    'lets a client that waits each Retry-After and retries through every time, over several windows',
    {
      covers: ['LIMIT-429-RETRY-AFTER'],
      needs: ['test-control'],
      starts: numRuns * maxStartsPerRun,
      uploads: 2 * numRuns,
    },
    async (t) => {
      const api = new Api(t.target);
      const seen: Seen = { waits: 0, starts: 0, retryAfters: [] };
      await t.check(
        fc.asyncProperty(schedule, async (steps) => behaveAsTold(t, api, [...opening, ...steps], seen)),
        numRuns,
      );
      if (seen.waits === 0)
        t.inconclusive(
          `${seen.starts} starts at the documented limit were never answered 429, so no Retry-After was waited (the limit itself is judged by the rate-limit tests)`,
        );
      t.choose(
        'retry-after',
        `${seen.waits} waits of Retry-After over ${seen.starts} starts: ${[...new Set(seen.retryAfters)].join(', ')} s`,
        'LIMIT-RETRY-AFTER-WITHIN-WINDOW',
      );
    },
  );
});
