/**
 * Idempotency-Key replays as the traffic shows them, per account: "Reusing an Idempotency-Key returns
 * the earlier try-on instead of starting or charging again." A key is bound by the first start that
 * was answered with a try-on; a later start of the same account with that key and the same body, sent
 * after the first was answered and within the day the x-point asks of a run (x-conformance: "A reuse
 * within the run must return the earlier try-on"), must name the same try-on. A reuse with another
 * body is recorded (the spec leaves its answer open), but never starts a new try-on: "one key can
 * never be charged twice". One sent while the first was in flight, and one after a moved clock are
 * recorded. Charging once is judged with the balances (balance.ts).
 */
import { createHash } from 'node:crypto';
import { finding } from '../../checks/finding.ts';
import { fingerprint } from '../../shared/canonical-json.ts';
import { CappedMap } from '../capped-map.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';
import { slim, startedTryOn, type TrafficView } from '../traffic-view.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'idempotent replays';

/** How long after the first answer a replay is judged: the run's 24 hours of the retention x-point. */
export const replayJudgedMs = 24 * 3600 * 1000;

interface Bound {
  readonly id: string;
  /** The create endpoint that bound the key. */
  readonly op: TrafficView['op'];
  /** The canonical digest of the request body (key order and whitespace aside), as the server binds it. */
  readonly body: string | undefined;
  readonly te: TrafficExchange;
  /** The control clock moves seen before the key was bound. */
  readonly epoch: number;
  /**
   * A start with this key went unanswered before it was bound (the client dropped it): the server may
   * have bound the key to that unseen start's try-on, or to this one's if they overlapped.
   */
  readonly afterUnseen?: boolean;
}

/** A key whose only start so far went unanswered. */
const unseen = 'unseen';

/** The request body's canonical digest: of its JSON value, or of its text when it is not JSON. */
function bodyOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    return fingerprint(JSON.parse(text) as unknown);
  } catch {
    return createHash('sha256').update(text).digest('hex');
  }
}

export function idempotentReplays(setup: RuleSetup): PassiveRule {
  const { ledger, caps } = setup;
  const accounts = new CappedMap<string, CappedMap<string, Bound | typeof unseen>>(caps.accounts);
  let keysLetGo = 0;
  let epoch = 0;
  ledger.declare(family, 'CREATE-IDEMPOTENCY-REPLAY', 'a start repeated with the key of an earlier answered start');
  return {
    family,
    notKept: () => accounts.evicted + keysLetGo,
    control(call) {
      if (call.kind === 'clock') epoch += 1;
    },
    unanswered(te, request) {
      const key = request.idempotencyKey;
      const start = request.op === 'createTryOn' || request.op === 'createTryOnSync';
      if (key === undefined || !start || te.account === 'none') return;
      const keys = accounts.getOrMake(te.account, () => new CappedMap(caps.keysPerAccount));
      if (keys.get(key) !== undefined) return;
      const before = keys.evicted;
      keys.set(key, unseen);
      keysLetGo += keys.evicted - before;
    },
    observe(v) {
      const key = v.idempotencyKey;
      const tryOn = startedTryOn(v);
      // A body the capture cut cannot be compared with the first.
      if (key === undefined || tryOn === undefined || v.te.account === 'none' || v.te.partial?.request) return;
      const keys = accounts.getOrMake(v.te.account, () => new CappedMap(caps.keysPerAccount));
      const bound = keys.get(key);
      const body = bodyOf(v.exchange.request.body);
      if (bound === undefined || bound === unseen) {
        const before = keys.evicted;
        const afterUnseen = bound === unseen;
        keys.set(key, { id: tryOn.id, op: v.op, body, te: slim(v.te), epoch, ...(afterUnseen && { afterUnseen }) });
        keysLetGo += keys.evicted - before;
        return;
      }
      const note = (id: Parameters<typeof ledger.note>[1], what: string): void =>
        ledger.note(family, id, `${what}: the first named try-on ${bound.id}, the reuse ${tryOn.id} (${v.status})`);
      const otherBody = body === undefined || body !== bound.body;
      if (otherBody) note('CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED', 'A key reused with another body');
      if (otherBody && tryOn.id === bound.id) return;
      if (v.te.startedAt < bound.te.endedAt) {
        note('CREATE-IDEMPOTENCY-IN-FLIGHT-IMPL-DEFINED', 'A key reused while its first start was in flight');
        return;
      }
      if (bound.epoch !== epoch || v.te.startedAt - bound.te.endedAt > replayJudgedMs) {
        note('CREATE-IDEMPOTENCY-RETENTION-IMPL-DEFINED', 'A key reused after a day or a moved clock');
        return;
      }
      if (tryOn.id !== bound.id && bound.afterUnseen === true) {
        note('CREATE-IDEMPOTENCY-IN-FLIGHT-IMPL-DEFINED', 'A key reused after a start with it went unanswered');
        return;
      }
      if (otherBody) {
        // What another body gets is open, but "one key can never be charged twice": never a new try-on.
        ledger.found(
          family,
          finding(
            'idempotent_replay',
            'CREATE-IDEMPOTENCY-NO-DOUBLE-CHARGE',
            'A key reused with another body started another try-on',
            `try-on ${tryOn.id.slice(0, 100)} (the key first gave ${bound.id.slice(0, 100)})`,
            '"one key can never be charged twice": a 4xx, or the earlier try-on',
            v.exchange.seq,
          ),
          [bound.te, v.te],
        );
        return;
      }
      if (tryOn.id === bound.id) {
        ledger.judged(family, bound.op === v.op ? 'CREATE-IDEMPOTENCY-REPLAY' : 'SYNC-SAME-CONTRACT-AS-CREATE', v.te);
        return;
      }
      // A key of one create endpoint reused on the other: "Same headers, body, rules, idempotency behaviour".
      const id = bound.op === v.op ? 'CREATE-IDEMPOTENCY-REPLAY' : 'SYNC-SAME-CONTRACT-AS-CREATE';
      ledger.found(
        family,
        finding(
          'idempotent_replay',
          id,
          'A reused Idempotency-Key started another try-on',
          `try-on ${tryOn.id.slice(0, 100)} (the key first gave ${bound.id.slice(0, 100)})`,
          '"Reusing an Idempotency-Key returns the earlier try-on instead of starting or charging again."',
          v.exchange.seq,
        ),
        [bound.te, v.te],
      );
    },
  };
}
