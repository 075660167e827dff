/**
 * The account's key changes under the client's feet (test control, standing in for the provider's web
 * platform): a rotation, or a revocation and then a new key. The key is used just before; after, the old
 * key is refused on a read and on a start, the new key reads every try-on of the account, the balance has
 * not moved, and another account still gets 404. Spec: Authentication 3, 4 and 6; Account credits.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { newIdempotencyKey } from './api.ts';
import type { Actor } from './target.ts';
import { recheck } from './tryon-clock-commands.ts';
import {
  answerOf,
  at,
  live,
  observe,
  precondition,
  readTryOn,
  said,
  type Command,
  type Model,
  type Real,
} from './tryon-model.ts';

export type KeyChange = 'rotate' | 'revoke';

const codeOf = (ex: Exchange): unknown => answerOf(ex).code;

/** A start body of the model's own live uploads (an ordinary person photo), or undefined when none is live. */
export function liveBody(m: Readonly<Model>): Record<string, unknown> | undefined {
  const person = m.images.find((i) => i.role === 'person' && !i.failing && live(m, i));
  const garment = m.images.find((i) => i.role === 'garment' && live(m, i));
  return person && garment ? { personImageId: person.id, garmentImageId: garment.id, consent: true } : undefined;
}

class KeyChangeCommand implements Command {
  constructor(
    readonly change: KeyChange,
    readonly pick: number,
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.tryOns.length > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const { t } = r;
    const control = r.control ?? t.inconclusive(`${this}: keys change only through test control`);
    const accountId = r.actor.accountId ?? t.inconclusive(`${this}: the run's account has no id to change its key`);
    const entry = at(m.tryOns, this.pick);
    // The key is used just before it changes, so that whatever remembers it has seen it.
    const used = await readTryOn(r, entry, `${this}: GET try-on ${entry.id} with the key about to change`);
    observe(r, entry, answerOf(used), 'GET before the key changed', m.clock);
    const pending = m.tryOns.filter((e) => e.status === 'pending').length;
    const before = r.credits !== undefined ? await r.api.credits(r.actor) : undefined;
    const old = r.actor;
    const earlier = [...m.oldKeys];
    if (this.change === 'rotate') {
      const key = await control.rotateKey(accountId);
      await this.#refused(m, r, old, 'AUTH-ONE-ACTIVE-KEY', 'rotated away');
      this.#adopt(m, r, key, 'rotated away');
    } else {
      await control.revokeKey(accountId);
      await this.#refused(m, r, old, 'AUTH-REVOKED-KEY-401', 'revoked');
      this.#adopt(m, r, await control.rotateKey(accountId), 'revoked');
    }
    // Every key the account had before stays refused, however many changes ago.
    for (const { key, how } of earlier) {
      const ex = await r.api.get({ ...old, key }, entry.id);
      if (ex.response?.status !== 401) precondition(r, ex, `${this}: GET with a key ${how} before`);
      // "One active key per account"; "A missing, malformed or revoked key gives 401 with code `INVALID_API_KEY`".
      t.must(how === 'revoked' ? 'AUTH-REVOKED-KEY-401' : 'AUTH-ONE-ACTIVE-KEY', () =>
        expect(
          [ex.response?.status, codeOf(ex)],
          `GET try-on ${entry.id} with a key ${how} before, ${this}: ${said(ex)}`,
        ).toEqual([401, 'INVALID_API_KEY']),
      );
    }
    const via = `after ${this}`;
    // The account's try-ons stay its own, whatever its key: "Only the creating account can read it"
    // (Authentication 6: "image ids and try-ons are scoped to the account of the key"). Each is read with the
    // new key (a 200 naming it), its state and result checked as before, and the ledger with them.
    await recheck(m, r, via);
    if (before !== undefined) {
      // "Its first API key adds 20 free credits, once per account": a later key adds none. Only a try-on
      // pending before may have moved the balance since (a refund when it failed).
      const after = await r.api.credits(r.actor);
      t.must('ACCOUNT-FREE-CREDITS-ONCE', () =>
        expect(
          after,
          `the balance ${via}, ${before} before, with at most ${pending} refund(s) since`,
        ).toBeLessThanOrEqual(before + pending),
      );
    }
    if (r.other) {
      const ex = await r.api.get(r.other, entry.id);
      precondition(r, ex, `${via}: the other account GETs try-on ${entry.id}`);
      // Authentication 6: "another account's try-on id gives `NOT_FOUND`" (404 in the Errors table).
      t.must('AUTH-FOREIGN-TRYON-NOT-FOUND', () =>
        expect(
          [ex.response?.status, codeOf(ex)],
          `${via}: the other account GETs try-on ${entry.id}: ${said(ex)}`,
        ).toEqual([404, 'NOT_FOUND']),
      );
    }
  }
  /** The account's new key is the run's from now on (and a secret of the run). */
  #adopt(m: Model, r: Real, key: string, how: Model['oldKeys'][number]['how']): void {
    r.t.target.secrets[key] = '$TRYON_FRESH_API_KEY';
    m.oldKeys.push({ key: r.actor.key, how });
    r.actor = { ...r.actor, key };
  }
  /**
   * The old key, just used, on a read of the account's try-on and on a valid start with a new
   * Idempotency-Key: both 401 INVALID_API_KEY ("A missing, malformed or revoked key gives 401 with code
   * `INVALID_API_KEY`"; "One active key per account").
   */
  async #refused(m: Model, r: Real, old: Actor, rule: RequirementId, how: string): Promise<void> {
    const { t } = r;
    const entry = at(m.tryOns, this.pick);
    const read = await r.api.get(old, entry.id);
    if (read.response?.status !== 401) precondition(r, read, `${this}: GET with the old key`);
    t.must(rule, () =>
      expect(
        [read.response?.status, codeOf(read)],
        `GET try-on ${entry.id} with the key just ${how}, which had read it a moment before: ${said(read)}`,
      ).toEqual([401, 'INVALID_API_KEY']),
    );
    const body = liveBody(m);
    if (!body) return;
    // Refused when right; reserved anyway, so that a target that starts it cannot pass the budget.
    fc.pre(t.target.budget.tryReserve(1));
    const key = newIdempotencyKey();
    const ex = await r.api.start(old, body, { idempotencyKey: key });
    const id = answerOf(ex).id;
    if (ex.response?.status === 200 && typeof id === 'string') {
      // Started all the same: a try-on of the account, which the model keeps, so that it is settled.
      m.startsLeft--;
      m.tryOns.push({ id, key, body, failing: false, status: 'pending', refunded: false, startedAt: m.clock });
    } else t.target.budget.giveBack(1);
    if (ex.response?.status !== 401) precondition(r, ex, `${this}: POST /tryons with the old key`);
    t.must(rule, () =>
      expect(
        [ex.response?.status, codeOf(ex)],
        `POST /tryons (a valid start, a new Idempotency-Key) with the key just ${how}: ${said(ex)}`,
      ).toEqual([401, 'INVALID_API_KEY']),
    );
  }
  toString(): string {
    return this.change === 'rotate'
      ? `rotate the account's key (used on try-on #${this.pick})`
      : `revoke the account's key (used on try-on #${this.pick}), then give it a new one`;
  }
}

/**
 * The key's commands, for a target with test control: a rotation and a revocation, each twice over in the
 * list, since every run of a test should change the key at least once in one of them.
 */
export function keyCommandArbs(withControl: boolean): Array<fc.Arbitrary<Command>> {
  if (!withControl) return [];
  const change = (c: KeyChange) => fc.nat(15).map((pick): Command => new KeyChangeCommand(c, pick));
  return [change('rotate'), change('revoke'), change('rotate'), change('revoke')];
}
