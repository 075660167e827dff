/**
 * Requests without a key, as the traffic shows them (spec: Authentication 1 and 4, "Every request
 * carries `Authorization: Bearer <API_KEY>`", "A missing, malformed or revoked key gives 401"). An
 * operation of the API (result images aside: "public and need no key") asked without an
 * Authorization header must not be served: a 2xx breaks the rule, and so does an answer only an
 * account can have, for there was none: 402 INSUFFICIENT_CREDITS ("no credits left") or GET
 * /tryons/{id}'s 404 ("no try-on with that id belongs to this account"). A 401 keeps it. Other
 * refusals (a 429 or 503 the order of checks may give first, a 4xx about the request) are not judged.
 */
import { finding } from '../../checks/finding.ts';
import type { TrafficView } from '../traffic-view.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';

const family = 'keys';

/** Whether the answer is one only a request with an account can get. */
function servedAsAnAccount(v: TrafficView): boolean {
  if (v.status >= 200 && v.status < 300) return true;
  const code = (v.exchange.response.json as { code?: unknown } | undefined)?.code;
  if (v.status === 402 && code === 'INSUFFICIENT_CREDITS') return true;
  return v.op === 'getTryOn' && v.status === 404 && code === 'NOT_FOUND';
}

export function keylessRequests(setup: RuleSetup): PassiveRule {
  const { ledger } = setup;
  ledger.declare(family, 'AUTH-BEARER-REQUIRED', 'a request of an operation without an Authorization header');
  return {
    family,
    notKept: () => 0,
    observe(v: TrafficView) {
      if (v.op === undefined || v.op === 'resultImage') return;
      if (v.exchange.request.headers.authorization !== undefined) return;
      if (v.status === 401) ledger.judged(family, 'AUTH-BEARER-REQUIRED', v.te);
      else if (servedAsAnAccount(v))
        ledger.found(
          family,
          finding(
            'keyless_request',
            'AUTH-BEARER-REQUIRED',
            'A request without an Authorization header was served as an account',
            `${v.status} to ${v.exchange.request.method} ${v.path.slice(0, 200)}`,
            '401 INVALID_API_KEY: "Every request carries `Authorization: Bearer <API_KEY>`"',
            v.exchange.seq,
          ),
          [v.te],
        );
    },
  };
}
