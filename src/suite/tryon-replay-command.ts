/**
 * The replay command of the try-on state machine: an Idempotency-Key of the model sent again, on
 * either create endpoint, before or after the clock moved. Spec: POST /tryons rules 3 and 4;
 * POST /tryons/sync ("repeating the request with the same Idempotency-Key").
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import { exercised } from './alternatives.ts';
import { refusalNamesKey } from './key-retention.ts';
import {
  answerOf,
  at,
  day,
  expectStarted,
  observe,
  precondition,
  said,
  type Command,
  type Model,
  type ModelTryOn,
  type Real,
} from './tryon-model.ts';

export class ReplayCommand implements Command {
  constructor(
    readonly pick: number,
    readonly sync: boolean,
  ) {}
  check(m: Readonly<Model>): boolean {
    // Under a lowered start limit a replay may be refused as a start over it (tryon-limit-commands.ts).
    if (m.tryOns.length === 0 || m.startsLimit !== undefined) return false;
    // A reuse after the clock moved may start a new try-on (retention is not shown), so it needs a start left.
    return m.clock === at(m.tryOns, this.pick).startedAt || m.startsLeft > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const { t } = r;
    const entry = at(m.tryOns, this.pick);
    const moved = m.clock - entry.startedAt;
    // The clock moved since the key was bound: how long keys are kept is not shown (x-point
    // idempotency-retention), so the answer is recorded.
    if (moved > 0) return this.#afterMove(m, r, entry, moved);
    const ex = await r.api.start(r.actor, entry.body, { idempotencyKey: entry.key, sync: this.sync });
    const status = ex.response?.status;
    precondition(r, ex, String(this));
    // "Reusing an Idempotency-Key returns the earlier try-on instead of starting or charging again."
    t.must('CREATE-IDEMPOTENCY-REPLAY', () =>
      expect(this.sync ? [200, 202] : [200], `${this}: ${said(ex)}`).toContain(status),
    );
    t.must('CREATE-IDEMPOTENCY-REPLAY', () =>
      expect(answerOf(ex).id, `${this}: a replay names the same try-on`).toBe(entry.id),
    );
    exercised(t, 'endpoint', this.sync ? 'POST /tryons/sync' : 'POST /tryons', ['CREATE-IDEMPOTENCY-REPLAY']);
    this.#replayed(m, r, entry, ex);
  }
  /** The answer of a replay that named `entry`: a sync 200 is a view of it, a 202 or a create answer says pending. */
  #replayed(m: Model, r: Real, entry: ModelTryOn, ex: Exchange): void {
    const { t } = r;
    if (this.sync && ex.response?.status === 200) observe(r, entry, answerOf(ex), 'sync replay 200', m.clock);
    else {
      // A 202 says pending: for a try-on already seen final, that is a final state that changed.
      if (this.sync && entry.status !== 'pending') {
        t.must('STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED', () =>
          expect('pending', `${this}: 202 pending after the try-on was seen ${entry.status}`).toBe(entry.status),
        );
      }
      expectStarted(t, ex, entry.id, String(this), this.sync);
    }
  }
  /**
   * A reuse of the key after the clock moved `moved` seconds: a replay, a new try-on (charged, and
   * from now on the key's), or a refusal (its image ids may have expired) are all recorded, never judged.
   */
  async #afterMove(m: Model, r: Real, entry: ModelTryOn, moved: number): Promise<void> {
    const { t } = r;
    fc.pre(t.target.budget.tryReserve(1));
    const ex = await r.api.start(r.actor, entry.body, { idempotencyKey: entry.key, sync: this.sync });
    const status = ex.response?.status;
    const id = answerOf(ex).id;
    const accepted = (status === 200 || status === 202) && typeof id === 'string';
    const named = accepted ? m.tryOns.find((e) => e.id === id && e.key === entry.key) : undefined;
    if (!accepted || named) t.target.budget.giveBack(1);
    precondition(r, ex, String(this));
    const after = `a key reused ${moved < day ? 'within' : 'over'} 24 h after its try-on (test clock)`;
    let outcome: string;
    if (named) {
      outcome = named === entry ? 'replays it' : 'replays the try-on it started when reused before';
      this.#replayed(m, r, named, ex);
    } else if (accepted) {
      outcome = 'starts a new try-on';
      m.startsLeft--;
      m.tryOns.push({
        id: id as string,
        key: entry.key,
        body: entry.body,
        failing: entry.failing,
        status: 'pending',
        refunded: false,
        startedAt: m.clock,
        sentAt: Date.now(),
      });
      if (this.sync && status === 200)
        observe(r, m.tryOns.at(-1) as ModelTryOn, answerOf(ex), 'sync 200 of a reused key', m.clock);
    } else {
      // A refusal for something else (its image ids expired with the clock) says nothing of the key.
      if (!refusalNamesKey(answerOf(ex).code)) return;
      outcome = `answers ${status ?? ex.error} ${String(answerOf(ex).code)}`;
    }
    t.choose('idempotency-retention', `${after} ${outcome}`, 'CREATE-IDEMPOTENCY-RETENTION-IMPL-DEFINED');
  }
  toString(): string {
    return `replay try-on #${this.pick} on ${this.sync ? 'POST /tryons/sync' : 'POST /tryons'}`;
  }
}
