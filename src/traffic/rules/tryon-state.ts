/**
 * A try-on's life as the traffic shows it, per account: every answer that describes it (the start,
 * a sync answer, each read) is one sighting. "States of a try-on: `pending`, `success`, `failed`"
 * with transitions only out of `pending`; a final state that later reads otherwise breaks the
 * terminal-transitions point as a run judges it (x-conformance: "Any transition out of `success` or
 * `failed` fails the state-machine properties"). Two sightings are ordered only when the later one's
 * request began after the earlier one's answer ended, so concurrent reads never look like a step back.
 */
import { finding } from '../../checks/finding.ts';
import { CappedMap } from '../capped-map.ts';
import type { TrafficExchange } from '../traffic-exchange.ts';
import { slim, startedTryOn, type TrafficView } from '../traffic-view.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'try-on states';

interface Sighting {
  /** The first final status seen, and the exchange that showed it. */
  final?: { readonly status: 'success' | 'failed'; readonly te: TrafficExchange };
}

const isFinal = (s: unknown): s is 'success' | 'failed' => s === 'success' || s === 'failed';

/** Try-on states per account, bounded (least recently seen let go). */
export function tryOnStates(setup: RuleSetup): PassiveRule {
  const { ledger, caps } = setup;
  const accounts = new CappedMap<string, CappedMap<string, Sighting>>(caps.accounts);
  let tryOnsLetGo = 0;
  const declare = (): void => {
    ledger.declare(family, 'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED', 'a try-on read again after it was seen final');
    ledger.declare(family, 'STATE-PENDING-TO-SUCCESS', 'a try-on seen as success');
    ledger.declare(family, 'STATE-FAILED-READ-IS-200', 'a try-on read again after it was seen failed');
  };
  declare();
  return {
    family,
    notKept: () => accounts.evicted + tryOnsLetGo,
    observe(v) {
      if (v.te.account === 'none') return;
      const read = v.op === 'getTryOn';
      const tryOn = read ? (v.status === 200 ? v.tryOn : undefined) : startedTryOn(v);
      const id = read ? v.pathId : tryOn?.id;
      if (id === undefined) return;
      const mine = accounts.getOrMake(v.te.account, () => new CappedMap(caps.tryOnsPerAccount));
      const before = mine.evicted;
      const seen = read && tryOn === undefined ? mine.get(id) : mine.getOrMake(id, () => ({}));
      tryOnsLetGo += mine.evicted - before;
      if (seen === undefined) return;
      if (read && v.status !== 200) {
        failedRead(setup, seen, v);
        return;
      }
      if (tryOn === undefined) return;
      if (read) sameId(setup, id, tryOn.id, v);
      // A start's answer is no reading of the state: a replay repeats the original `pending` body, and a
      // sync 202 may pick up a try-on already final. Reads and sync 200s tell the state.
      if (!read && !(v.op === 'createTryOnSync' && v.status === 200)) return;
      const { status } = tryOn;
      // "`resultUrl` becomes available" on success (the suite: a success carries a string resultUrl).
      if (status === 'success') {
        if (typeof tryOn.resultUrl === 'string') ledger.judged(family, 'STATE-PENDING-TO-SUCCESS', v.te);
        else
          ledger.found(
            family,
            finding(
              'tryon_state',
              'STATE-PENDING-TO-SUCCESS',
              `Try-on ${id} reads as success without a resultUrl`,
              JSON.stringify(tryOn.resultUrl ?? null),
              '"`resultUrl` becomes available for 24 hours" on success',
              v.exchange.seq,
            ),
            [v.te],
          );
      }
      const final = seen.final;
      if (read && final?.status === 'failed' && v.te.startedAt >= final.te.endedAt)
        ledger.judged(family, 'STATE-FAILED-READ-IS-200', v.te);
      if (final !== undefined && v.te.startedAt >= final.te.endedAt) {
        if (status === final.status) ledger.judged(family, 'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED', v.te);
        else
          ledger.found(
            family,
            finding(
              'tryon_state',
              'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED',
              `Try-on ${id} left its final state`,
              `${String(status)} (after ${final.status} was read)`,
              `${final.status} for good ("Any transition out of \`success\` or \`failed\`: none shown")`,
              v.exchange.seq,
            ),
            [final.te, v.te],
          );
      }
      if (isFinal(status) && (final === undefined || v.te.endedAt < final.te.endedAt))
        seen.final = { status, te: slim(v.te) };
    },
  };
}

/** "Identifier of the try-on, returned on creation": a read of try-on `id` names that try-on (as the suite's model). */
function sameId(setup: RuleSetup, id: string, answered: string, v: TrafficView): void {
  if (answered === id) {
    setup.ledger.judged(family, 'RES-TRYON-ID-RETURNED-ON-CREATE', v.te);
    return;
  }
  setup.ledger.found(
    family,
    finding(
      'tryon_state',
      'RES-TRYON-ID-RETURNED-ON-CREATE',
      'A read of a try-on answered another try-on',
      answered,
      `the id read: ${id}`,
      v.exchange.seq,
    ),
    [v.te],
  );
}

/**
 * "A `failed` try-on is reported with HTTP 200 on read": a read after `failed` was seen that gets an
 * error status breaks it; a key problem (401) and the statuses any read may get (429, 500, 503) do not.
 */
function failedRead(setup: RuleSetup, seen: Sighting, v: TrafficView): void {
  const final = seen.final;
  if (final?.status !== 'failed' || v.te.startedAt < final.te.endedAt) return;
  if ([401, 429, 500, 503].includes(v.status)) return;
  setup.ledger.found(
    family,
    finding(
      'tryon_state',
      'STATE-FAILED-READ-IS-200',
      `A read of failed try-on ${v.pathId ?? ''} got ${v.status}`,
      String(v.status),
      '"A `failed` try-on is reported with HTTP 200 on read"',
      v.exchange.seq,
    ),
    [final.te, v.te],
  );
}
