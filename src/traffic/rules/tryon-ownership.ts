/**
 * Who may read a try-on, as the traffic shows it (spec: Try-on `id`, "Identifier of the try-on,
 * returned on creation. Only the creating account can read it."; Authentication 6, "another
 * account's try-on id gives `NOT_FOUND`"). A read of an id an earlier start named: by another
 * account must get 404, never 200; by the creating account under another of its keys must not get
 * 404 (the account, not the key, owns it). Accounts are told apart only where test control tied both
 * keys to their accounts (key-book.ts): two unknown digests may be one account whose key was replaced
 * where the proxy could not see. After a moved clock a 404 of one's own try-on is not judged (how
 * long a try-on stays readable is not shown).
 */
import { finding } from '../../checks/finding.ts';
import type { RequirementId } from '../../contract/requirements.ts';
import type { TrafficView } from '../traffic-view.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'ownership';

export function tryOnOwnership(setup: RuleSetup): PassiveRule {
  const { ledger, keys, starts } = setup;
  let clockMovedAt = Number.NEGATIVE_INFINITY;
  ledger.declare(family, 'AUTH-FOREIGN-TRYON-NOT-FOUND', "a read of another account's try-on");
  const fail = (v: TrafficView, id: RequirementId, title: string, want: string) =>
    ledger.found(
      family,
      finding('tryon_owner', id, title, `${v.status} to GET ${v.path.slice(0, 200)}`, want, v.exchange.seq),
      [v.te],
    );
  return {
    family,
    notKept: () => 0,
    control(call, at) {
      if (call.kind === 'clock') clockMovedAt = at;
    },
    observe(v) {
      if (v.op !== 'getTryOn' || v.pathId === undefined || v.key === 'none') return;
      const started = starts.of(v.pathId);
      if (started === undefined || v.te.startedAt < started.endedAt || keys.retired(v.key) !== undefined) return;
      if (started.account === v.te.account) {
        if (started.key === v.key) return;
        if (v.status === 200) ledger.judged(family, 'RES-TRYON-ID-RETURNED-ON-CREATE', v.te);
        else if (v.status === 404 && clockMovedAt < started.endedAt)
          fail(
            v,
            'RES-TRYON-ID-RETURNED-ON-CREATE',
            "The creating account's other key could not read its try-on",
            '200: "Only the creating account can read it." (the account, whichever of its keys)',
          );
        return;
      }
      if (!keys.tied(v.key) || !keys.tied(started.key)) return;
      if (v.status === 404) ledger.judged(family, 'AUTH-FOREIGN-TRYON-NOT-FOUND', v.te);
      else if (v.status === 200)
        fail(
          v,
          'AUTH-FOREIGN-TRYON-NOT-FOUND',
          "Another account's try-on was read",
          '404 NOT_FOUND: "another account\'s try-on id gives `NOT_FOUND`"',
        );
    },
  };
}
