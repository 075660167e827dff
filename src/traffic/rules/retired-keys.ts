/**
 * Keys test control retired, as the traffic shows them used afterwards (spec: Authentication 3 and 4,
 * "One active key per account." and "A missing, malformed or revoked key gives 401 with code
 * `INVALID_API_KEY`"). A request of an operation (result images aside: "public and need no key")
 * begun after the answer that revoked or replaced its key must not be served: a 2xx breaks the rule,
 * a 401 keeps it; other answers are not judged. Which keys were retired is the key book's
 * (key-book.ts), learnt from test control's answers only.
 */
import { finding } from '../../checks/finding.ts';
import type { RequirementId } from '../../contract/requirements.ts';
import type { TrafficView } from '../traffic-view.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'keys';

const requirementOf: Readonly<Record<'revoked' | 'rotated', RequirementId>> = {
  revoked: 'AUTH-REVOKED-KEY-401',
  rotated: 'AUTH-ONE-ACTIVE-KEY',
};

export function retiredKeys(setup: RuleSetup): PassiveRule {
  const { ledger, keys } = setup;
  ledger.declare(family, 'AUTH-REVOKED-KEY-401', 'a request with a key test control revoked');
  ledger.declare(family, 'AUTH-ONE-ACTIVE-KEY', 'a request with a key test control replaced by a new one');
  return {
    family,
    notKept: () => 0,
    observe(v: TrafficView) {
      if (v.op === undefined || v.op === 'resultImage' || v.key === 'none') return;
      const retired = keys.retired(v.key);
      if (retired === undefined || v.te.startedAt <= retired.at) return;
      const id = requirementOf[retired.how];
      if (v.status === 401) ledger.judged(family, id, v.te);
      else if (v.status >= 200 && v.status < 300)
        ledger.found(
          family,
          finding(
            'retired_key',
            id,
            `A request with a ${retired.how} key was served`,
            `${v.status} to ${v.exchange.request.method} ${v.path.slice(0, 200)}, ` +
              `${Math.round(v.te.startedAt - retired.at)} ms after the key was ${retired.how}`,
            retired.how === 'revoked'
              ? '401 INVALID_API_KEY: "A missing, malformed or revoked key gives 401"'
              : '401 INVALID_API_KEY: "One active key per account."',
            v.exchange.seq,
          ),
          [v.te],
        );
    },
  };
}
