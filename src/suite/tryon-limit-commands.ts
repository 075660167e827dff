/**
 * The account's start limit changes under the client's feet (test control, standing in for "raising it is
 * by request to the provider"): lowered to one start a minute once the account's window already holds
 * starts, then raised again. After the lower, a start is over the limit: 429 RATE_LIMITED with a
 * Retry-After, and it costs nothing; after the raise, a start passes. While the limit is low, the model's
 * other starts and replays wait. Spec: Limits; Errors (RATE_LIMITED); What the service does (pricing).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { newIdempotencyKey } from './api.ts';
import { raisedLimits } from './target.ts';
import { checkLedger } from './tryon-clock-commands.ts';
import { liveBody } from './tryon-key-commands.ts';
import { answerOf, said, type Command, type Model, type Real } from './tryon-model.ts';
import { StartCommand } from './tryon-start-command.ts';

/** The limit a lower sets: one start a minute, which the window already holds. */
export const loweredStarts = 1;
/**
 * How recent a start must be for the model to count it in the account's window: well inside a minute, since
 * a rolling window's minute runs from the target's own receipt of it.
 */
const recentMs = 45_000;

/** Accepted starts the account's window surely still holds: answered in the last 45 s, and the clock unmoved. */
export function startsInWindow(m: Readonly<Model>): number {
  const now = Date.now();
  return m.tryOns.filter((e) => e.sentAt !== undefined && e.startedAt === m.clock && now - e.sentAt < recentMs).length;
}

class LowerStartsLimitCommand implements Command {
  check(m: Readonly<Model>): boolean {
    // Two starts left: one a fixed window may let through, one for the raise after.
    return m.startsLimit === undefined && m.startsLeft > 1 && startsInWindow(m) > 0 && liveBody(m) !== undefined;
  }
  async run(m: Model, r: Real): Promise<void> {
    const { t } = r;
    const control = r.control ?? t.inconclusive(`${this}: limits change only through test control`);
    const accountId = r.actor.accountId ?? t.inconclusive(`${this}: the run's account has no id to set limits on`);
    await control.setLimits(accountId, { startsPerMinute: loweredStarts });
    m.startsLimit = loweredStarts;
    const held = startsInWindow(m);
    const what =
      `a valid start with ${held} start(s) of the last 45 s in the window, ` +
      `over a limit lowered to ${loweredStarts} a minute`;
    let over = await this.#probe(m, r);
    if (over.response?.status !== 429) {
      // A fixed window may have opened a new minute since the window's starts: only a repeat is judged.
      t.choose(
        'starts-window',
        `a start over a limit just lowered below the window's count was let through ` +
          `(${over.response?.status ?? over.error}), as a fixed window that opened a new minute may; ` +
          'the repeat was judged',
      );
      over = await this.#probe(m, r);
    }
    // Limits: "Over a rate limit the response is 429 `RATE_LIMITED` with a `Retry-After` header in seconds."
    t.must('ERR-RATE-LIMITED', () =>
      expect([over.response?.status, answerOf(over).code], `${what}: ${said(over)}`).toEqual([429, 'RATE_LIMITED']),
    );
    t.must('LIMIT-429-RETRY-AFTER', () =>
      expect(over.response?.headers['retry-after'] ?? '(none)', `the Retry-After of ${what}`).toMatch(/^\d+$/),
    );
    // "A try-on that fails, or cannot be started, is refunded automatically": the refused start costs nothing.
    if (r.credits !== undefined) await checkLedger(m, r, `after ${this}`);
  }
  /** One valid start, unpaced, with its 429 unretried; one the target starts after all joins the model. */
  async #probe(m: Model, r: Real): Promise<Exchange> {
    const body = liveBody(m) as Record<string, unknown>;
    fc.pre(r.t.target.budget.tryReserve(1));
    const key = newIdempotencyKey();
    // Sent past the pacer: a 429 here must not hold the model's later starts for its Retry-After.
    const ex = await r.t.target.send({
      method: 'POST',
      path: '/tryons',
      key: r.actor.key,
      json: body,
      headers: { 'idempotency-key': key },
      operationId: 'createTryOn',
      keep: [429],
    });
    const id = answerOf(ex).id;
    if (ex.response?.status === 200 && typeof id === 'string') {
      m.startsLeft--;
      m.tryOns.push({
        id,
        key,
        body,
        failing: false,
        status: 'pending',
        refunded: false,
        startedAt: m.clock,
        sentAt: Date.now(),
      });
    } else r.t.target.budget.giveBack(1);
    return ex;
  }
  toString(): string {
    return `lower the account's start limit to ${loweredStarts} a minute, and start`;
  }
}

/** After the raise, an ordinary start; a 429 for it breaks the raised limit. */
class RaiseStartsLimitCommand implements Command {
  readonly #start: StartCommand;
  constructor(
    readonly person: number,
    readonly sync: boolean,
  ) {
    this.#start = new StartCommand('normal', person, 0, sync, undefined, {
      keep: [429],
      judge: (r, ex, what) => {
        // "raising it is by request to the provider": a raised limit applies, and the window holds far fewer.
        r.t.must('LIMIT-STARTS-RAISED-ON-REQUEST', () =>
          expect(
            ex.response?.status,
            `${what}, just after the start limit was raised from ${loweredStarts} ` +
              `to ${raisedLimits.startsPerMinute} a minute: ${said(ex)}`,
          ).not.toBe(429),
        );
      },
    });
  }
  check(m: Readonly<Model>): boolean {
    return m.startsLimit !== undefined && this.#start.check(m);
  }
  async run(m: Model, r: Real): Promise<void> {
    const control = r.control ?? r.t.inconclusive(`${this}: limits change only through test control`);
    const accountId = r.actor.accountId ?? r.t.inconclusive(`${this}: the run's account has no id to set limits on`);
    await control.setLimits(accountId, { startsPerMinute: raisedLimits.startsPerMinute });
    delete m.startsLimit;
    await this.#start.run(m, r);
  }
  toString(): string {
    return `raise the account's start limit again, then ${this.#start}`;
  }
}

/** The limit's commands, for a target with test control. */
export function limitCommandArbs(withControl: boolean): Array<fc.Arbitrary<Command>> {
  if (!withControl) return [];
  const raise = fc.tuple(fc.nat(15), fc.boolean()).map(([p, sync]): Command => new RaiseStartsLimitCommand(p, sync));
  // The raise three times over: it runs only once the limit is low, and should come soon after.
  return [fc.constant<Command>(new LowerStartsLimitCommand()), raise, raise, raise];
}
