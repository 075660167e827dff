/**
 * A transient refusal at start in the middle of a run (the scenario convention, src/fixtures/scenarios.ts):
 * 500 INTERNAL_ERROR, 502 START_FAILED or 503 UNAVAILABLE on either create endpoint, with every try-on of
 * the model final first, so that the ledger is read exact before and after. The run goes on after it, so
 * the account's later starts, reads and replays are judged with the refusal in its history. Spec: Errors;
 * States and transitions (rule 3); What the service does (pricing).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { RequirementId } from '../contract/requirements.ts';
import { makePersonPhoto } from '../fixtures/images.ts';
import { scenarios } from '../fixtures/scenarios.ts';
import { exercised } from './alternatives.ts';
import { newIdempotencyKey } from './api.ts';
import {
  answerOf,
  live,
  observe,
  precondition,
  readTryOn,
  said,
  type Command,
  type Model,
  type Real,
} from './tryon-model.ts';

export type Refusal = 'internal-error' | 'start-failed' | 'unavailable';

/** The code the Errors table gives each status, and the requirement that judges it. */
const rules: Record<Refusal, RequirementId> = {
  'internal-error': 'ERR-INTERNAL-ERROR',
  'start-failed': 'ERR-START-FAILED',
  unavailable: 'ERR-UNAVAILABLE',
};

const photos = new Map<Refusal, Promise<Buffer>>();
const photoOf = (scenario: Refusal): Promise<Buffer> => {
  let made = photos.get(scenario);
  if (!made) photos.set(scenario, (made = makePersonPhoto({ scenario })));
  return made;
};

class RefusedStartCommand implements Command {
  constructor(
    readonly scenario: Refusal,
    readonly sync: boolean,
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.startsLimit === undefined && m.images.some((i) => i.role === 'garment' && live(m, i));
  }
  async run(m: Model, r: Real): Promise<void> {
    const { t } = r;
    const { status, code } = scenarios[this.scenario];
    // Every try-on final first: the balance then moves only with this start.
    for (const entry of m.tryOns.filter((e) => e.status === 'pending')) {
      const via = `${this}: settle try-on ${entry.id} first`;
      observe(
        r,
        entry,
        answerOf(await readTryOn(r, entry, via, await r.api.waitFinal(r.actor, entry.id))),
        via,
        m.clock,
      );
    }
    const before = r.credits !== undefined ? await r.api.credits(r.actor) : undefined;
    const uploaded = await r.api.upload(r.actor, await photoOf(this.scenario), { filename: 'person.jpg' });
    const person = answerOf(uploaded).id;
    if (uploaded.response?.status !== 200 || typeof person !== 'string')
      t.inconclusive(`${this}: the upload of its person photo answered ${said(uploaded)}`);
    const garment = m.images.find((i) => i.role === 'garment' && live(m, i))?.id as string;
    fc.pre(t.target.budget.tryReserve(1));
    const key = newIdempotencyKey();
    const body = { personImageId: person, garmentImageId: garment, consent: true };
    const ex = await r.api.start(r.actor, body, { idempotencyKey: key, sync: this.sync, keep: [status] });
    const id = answerOf(ex).id;
    if ((ex.response?.status === 200 || ex.response?.status === 202) && typeof id === 'string') {
      // Started: the target does not follow the scenario convention. The try-on is the model's to settle.
      m.startsLeft--;
      m.tryOns.push({ id, key, body, failing: false, status: 'pending', refunded: false, startedAt: m.clock });
      t.inconclusive(`${this}: ${said(ex)}; the target does not honour the scenario marker`);
    }
    t.target.budget.giveBack(1);
    if (ex.response?.status !== status) {
      precondition(r, ex, String(this));
      t.inconclusive(`${this}: ${said(ex)}, not ${status}; the target does not honour the scenario marker`);
    }
    // Errors: "| 500 | INTERNAL_ERROR |", "| 502 | START_FAILED |", "| 503 | UNAVAILABLE |".
    t.must(rules[this.scenario], () => expect(answerOf(ex).code, `${this}: ${said(ex)}`).toBe(code));
    exercised(t, 'endpoint', this.sync ? 'POST /tryons/sync' : 'POST /tryons', [rules[this.scenario]]);
    if (before === undefined) return;
    const after = await r.api.credits(r.actor);
    // "A try-on that fails, or cannot be started, is refunded automatically"; "A try-on that cannot be started
    // (`START_FAILED`) uses no credit".
    t.must('STATE-NOT-STARTED-NO-CREDIT-NO-STATE', () =>
      expect(after, `the balance after ${this}, every earlier try-on final: ${before} before`).toBe(before),
    );
  }
  toString(): string {
    const { status, code } = scenarios[this.scenario];
    return `${this.sync ? 'POST /tryons/sync' : 'POST /tryons'} refused ${status} ${code} (scenario ${this.scenario})`;
  }
}

/** The refusals' commands, for a target with test control that follows the scenario convention. */
export function faultCommandArbs(withControl: boolean, scenarioImages: boolean): Array<fc.Arbitrary<Command>> {
  if (!withControl || !scenarioImages) return [];
  // Unbiased: fast-check favours the first of constants by default, and each status matters alike.
  return [
    fc
      .noBias(fc.tuple(fc.constantFrom<Refusal>('internal-error', 'start-failed', 'unavailable'), fc.boolean()))
      .map(([scenario, sync]): Command => new RefusedStartCommand(scenario, sync)),
  ];
}
