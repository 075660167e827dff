/**
 * Time as a step of the try-on state machine: a command moves the target's clock (test control) across the
 * 24-hour marks of image ids, result URLs and Idempotency-Keys, then every invariant of the model is checked
 * again; another fetches a success's result image. Spec: States and transitions (rule 4); What the service
 * does (pricing, the AI label); Try-on `resultUrl` ("JPEG or PNG", "valid for 24 hours"); Limits.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { RequirementId } from '../contract/requirements.ts';
import { exercised } from './alternatives.ts';
import { checkResultImage, fetchResult } from './result-image.ts';
import {
  answerOf,
  at,
  clockSlack,
  day,
  observe,
  precondition,
  readTryOn,
  said,
  type Command,
  type Model,
  type ModelTryOn,
  type Real,
} from './tryon-model.ts';

/**
 * The moves a run draws: a quarter of an hour, 6 h, 23 h (just inside the 24 h marks) and 24 h + 1 min
 * (just past them).
 */
export const clockMoves = [900, 6 * 3600, 23 * 3600, day + 60] as const;

const hours = (seconds: number): string =>
  seconds % 3600 === 0
    ? `${seconds / 3600} h`
    : seconds > 3600
      ? `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`
      : `${seconds / 60} min`;

class AdvanceClockCommand implements Command {
  constructor(readonly seconds: number) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const control = r.control ?? r.t.inconclusive('the clock moves only through test control');
    await control.advanceClock(this.seconds);
    m.clock += this.seconds;
    await recheck(m, r, `after ${this}`);
  }
  toString(): string {
    return `move the clock ${hours(this.seconds)} forward`;
  }
}

/**
 * The last step of a run with test control, once every try-on is final: the clock moves 24 h + 1 min,
 * past every 24 h mark of the run, and everything is checked again, so that each run crosses them.
 */
export async function passDay(m: Model, r: Real): Promise<void> {
  await new AdvanceClockCommand(day + 60).run(m, r);
}

class FetchResultCommand implements Command {
  constructor(readonly pick: number) {}
  check(m: Readonly<Model>): boolean {
    return m.tryOns.some((e) => e.resultUrl !== undefined);
  }
  async run(m: Model, r: Real): Promise<void> {
    await checkResult(
      m,
      r,
      at(
        m.tryOns.filter((e) => e.resultUrl !== undefined),
        this.pick,
      ),
      String(this),
    );
  }
  toString(): string {
    return `GET the result image of success #${this.pick}`;
  }
}

/**
 * Everything that must not change when only time passed: each try-on read again (a final state
 * stays final, its fields keep the spec's rules), the balance within the model's ledger, and each
 * success's result image (served until 24 h, with the spec's rules; recorded after).
 */
export async function recheck(m: Model, r: Real, via: string): Promise<void> {
  for (const entry of m.tryOns)
    observe(r, entry, answerOf(await readTryOn(r, entry, `${via}: GET try-on ${entry.id}`)), `GET ${via}`, m.clock);
  if (r.credits !== undefined) await checkLedger(m, r, via);
  for (const entry of m.tryOns) if (entry.resultUrl !== undefined) await checkResult(m, r, entry, via);
}

/**
 * The balance against the model: "Pricing: 1 credit per finished try-on. A try-on that fails … is
 * refunded automatically", and a failed try-on's "credit has already been returned". Each success
 * seen costs one credit and each failure seen none; a try-on last seen pending may cost one or none
 * yet (it may have finished since it was read).
 */
export async function checkLedger(m: Model, r: Real, via: string): Promise<void> {
  const used = (r.credits as number) - (await r.api.credits(r.actor));
  const count = (status: ModelTryOn['status']): number => m.tryOns.filter((e) => e.status === status).length;
  const [successes, failures, pending] = [count('success'), count('failed'), count('pending')];
  const what = `credits used ${via}, by ${m.tryOns.length} try-ons: ${successes} success, ${failures} failed, ${pending} pending`;
  const rule: RequirementId =
    failures > 0 && used > successes + pending ? 'SVC-FAILED-TRYON-REFUNDED' : 'SVC-ONE-CREDIT-PER-FINISHED-TRYON';
  r.t.must(rule, () => expect(used, what).toBeGreaterThanOrEqual(successes));
  r.t.must(rule, () => expect(used, what).toBeLessThanOrEqual(successes + pending));
}

/**
 * A success's result image: until 24 h after the start (the model's clock, with slack for real
 * time) it is served without a key and keeps every result rule, whichever format the target made;
 * once 24 h have surely passed since the success was seen, it must no longer be served ("valid for
 * 24 hours"), and what it answers instead is recorded (x-point result-expiry). In between, nothing
 * is judged.
 */
async function checkResult(m: Model, r: Real, entry: ModelTryOn, via: string): Promise<void> {
  const { t } = r;
  const url = entry.resultUrl as string;
  const where = `${via}: GET ${url}, the result of try-on ${entry.id}`;
  const age = m.clock - entry.startedAt;
  const expired = entry.successSeenAt !== undefined && m.clock - entry.successSeenAt > day;
  if (age + clockSlack >= day && !expired) return;
  const ex = await fetchResult(t, url);
  if (expired) {
    // Limits: "Result URL lifetime | 24 hours"; which answer an expired one gives is open (x-point result-expiry).
    t.must('RES-RESULT-URL-VALID-24H', () =>
      expect(ex.response?.status, `${where}, over 24 h after the success: ${said(ex)}`).not.toBe(200),
    );
    const code = answerOf(ex).code;
    t.choose(
      'result-expiry',
      `${ex.response?.status ?? ex.error}${typeof code === 'string' ? ` ${code}` : ''}`,
      'RES-RESULT-URL-VALID-24H',
    );
    return;
  }
  if (ex.response?.status !== 401) precondition(r, ex, where);
  // Authentication 7: "Result image URLs are public and need no key"; resultUrl: "valid for 24 hours".
  const rule: RequirementId = age > 0 ? 'RES-RESULT-URL-VALID-24H' : 'AUTH-RESULT-URL-PUBLIC';
  t.must(rule, () => expect(ex.response?.status, `${where}, ${hours(age)} after the start: ${said(ex)}`).toBe(200));
  const format = checkResultImage(t, url, ex);
  if (format !== 'neither JPEG nor PNG')
    exercised(t, 'result format', format === 'image/jpeg' ? 'JPEG' : 'PNG', [rule]);
}

/** The clock's commands, for a target with test control: moves of the clock, and fetches of result images. */
export function clockCommandArbs(withControl: boolean): Array<fc.Arbitrary<Command>> {
  return [
    fc.nat(15).map((p): Command => new FetchResultCommand(p)),
    ...(withControl ? [fc.constantFrom(...clockMoves).map((s): Command => new AdvanceClockCommand(s))] : []),
  ];
}
