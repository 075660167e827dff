/**
 * The 202 of POST /tryons/sync as the traffic shows it (spec: POST /tryons/sync, "202 | still working
 * when the wait ends | `{id, status: "pending", pollUrl}` identical in shape to the create response";
 * States and transitions rule 5, "otherwise 202 with `pending` and a `pollUrl`"): a 202 whose JSON
 * body lacks a string id, a `pending` status or a string pollUrl breaks it. The pollUrl's value is the
 * per-exchange checks' (RES-POLL-URL-VALUE).
 */
import { finding } from '../../checks/finding.ts';
import type { TrafficView } from '../traffic-view.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'sync answers';
const id = 'SYNC-202-STILL-PENDING';

export function sync202(setup: RuleSetup): PassiveRule {
  const { ledger } = setup;
  ledger.declare(family, id, 'a 202 from POST /tryons/sync');
  return {
    family,
    notKept: () => 0,
    observe(v: TrafficView) {
      if (v.op !== 'createTryOnSync' || v.status !== 202 || !v.whole) return;
      const body = v.exchange.response.json as Record<string, unknown> | undefined;
      const missing = [
        ...(typeof body?.id === 'string' ? [] : ['a string id']),
        ...(body?.status === 'pending' ? [] : ['status "pending"']),
        ...(typeof body?.pollUrl === 'string' ? [] : ['a string pollUrl']),
      ];
      if (missing.length === 0) ledger.judged(family, id, v.te);
      else
        ledger.found(
          family,
          finding(
            'sync_202',
            id,
            'A sync 202 is not shaped as the create response',
            `202 without ${missing.join(', ')}: ${v.exchange.response.text.slice(0, 200)}`,
            '`{id, status: "pending", pollUrl}` identical in shape to the create response',
            v.exchange.seq,
          ),
          [v.te],
        );
    },
  };
}
