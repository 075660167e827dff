/**
 * Starts the spec refuses, as the traffic shows them (spec: POST /tryons request headers, body and
 * rules 1-2; Errors). A start whose request shows a fault (start-request-faults.ts) must not be
 * accepted: a 2xx breaks the fault's requirement. The answer the spec owes it passes it: the code
 * the Errors table gives the fault, or, where the spec leaves the code open ("not shown"), any 4xx
 * when that fault is the request's only one. Any other refusal is not judged (the order of checks is
 * the target's choice). Two wrong answers are judged too: a URL every image of which breaks a static
 * rule answered IMAGE_DOWNLOAD_FAILED ("400 | INVALID_IMAGE_URL | URL not HTTPS, custom port, or
 * private address"), and a body that is not a JSON object answered 500 (the x-point accepts any 4xx,
 * never a 5xx). A replay (an id an earlier start named) is left alone: the server answered the key.
 */
import type { RequirementId } from '../../contract/requirements.ts';
import type { TrafficView } from '../traffic-view.ts';
import { answerFailed, codeOf } from './answer-finding.ts';
import type { PassiveRule, RuleSetup } from './rule.ts';
import { bodyObject, imageUrls, type StartFault, startFaults } from './start-request-faults.ts';
import { urlFault } from './url-faults.ts';

const family = 'refused starts';

/** Refusals that say nothing of the request's body or headers: a key, credits, a key in use, a limit. */
const notAboutTheRequest = new Set([401, 402, 409, 429]);

const declared: ReadonlyArray<readonly [RequirementId, string]> = [
  ['CREATE-URL-HTTPS-ONLY', 'a start with an image URL that is not HTTPS'],
  ['CREATE-URL-DEFAULT-PORT-ONLY', 'a start with an image URL with a custom port'],
  ['CREATE-URL-NO-PRIVATE-ADDRESS', 'a start with an image URL naming a private address literal'],
  ['ERR-INVALID-IMAGE-URL', 'a start refused for an image URL that breaks a static rule'],
  ['CREATE-IDEMPOTENCY-KEY-FORMAT', 'a start without a valid Idempotency-Key'],
  ['ERR-MISSING-IDEMPOTENCY-KEY', 'a start without a valid Idempotency-Key'],
  ['CREATE-CONTENT-TYPE-JSON', 'a start whose Content-Type is not application/json'],
  ['ERR-MALFORMED-JSON-IMPL-DEFINED', 'a start whose body is not a JSON object'],
  ['ERR-CONSENT-REQUIRED', 'a start whose consent is not true'],
  ['ERR-TITLE-TOO-LONG-IMPL-DEFINED', 'a start with a title over 120 characters'],
  ['CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE', 'a start with both or neither source of an image'],
];

export function startFaultRule(setup: RuleSetup): PassiveRule {
  const { ledger } = setup;
  /** Origins test control trusts as public image hosts (its loopback fixture host). */
  const trusted: string[] = [];
  for (const [id, needs] of declared) ledger.declare(family, id, needs);
  const fail = (v: TrafficView, id: RequirementId, title: string, want: string) =>
    answerFailed(ledger, family, 'refused_start', v, { id, title, want });
  return {
    family,
    notKept: () => 0,
    control(call) {
      if (call.kind === 'settings' && call.trustedOrigin !== undefined && !trusted.includes(call.trustedOrigin))
        if (trusted.length < 16) trusted.push(call.trustedOrigin);
    },
    observe(v) {
      if (v.op !== 'createTryOn' && v.op !== 'createTryOnSync') return;
      if (setup.starts.isReplay(v)) return;
      const { request } = v.exchange;
      const faults = startFaults(
        { headers: request.headers, body: request.body, bodySeen: v.te.partial?.request !== true },
        trusted,
      );
      for (const f of faults) judgeFault(v, f, faults.length);
      staticUrlAnswer(v, faults);
    },
  };

  function judgeFault(v: TrafficView, f: StartFault, faults: number): void {
    if (v.status >= 200 && v.status < 300) {
      const want = f.owed === 'any 4xx' ? 'a 4xx with the error envelope' : `${f.owed.status} ${f.owed.code}`;
      for (const id of f.breaks) fail(v, id, `A start with ${f.what} was accepted`, want);
      return;
    }
    const owed =
      f.owed === 'any 4xx'
        ? faults === 1 && v.status >= 400 && v.status < 500 && !notAboutTheRequest.has(v.status)
        : v.status === f.owed.status && codeOf(v) === f.owed.code;
    if (owed) for (const id of f.breaks) ledger.judged(family, id, v.te);
    else if (v.status === 500 && f.breaks.includes('ERR-MALFORMED-JSON-IMPL-DEFINED'))
      fail(v, 'ERR-MALFORMED-JSON-IMPL-DEFINED', `A start with ${f.what} got a server error`, 'a 4xx, never a 5xx');
  }

  /** INVALID_IMAGE_URL for a URL the static rules refuse; IMAGE_DOWNLOAD_FAILED when no URL could be fetched. */
  function staticUrlAnswer(v: TrafficView, faults: readonly StartFault[]): void {
    const urlFaulted = faults.some((f) => f.owed !== 'any 4xx' && f.owed.code === 'INVALID_IMAGE_URL');
    if (!urlFaulted || v.status !== 400) return;
    if (codeOf(v) === 'INVALID_IMAGE_URL') {
      ledger.judged(family, 'ERR-INVALID-IMAGE-URL', v.te);
      return;
    }
    const body = bodyObject(v.exchange.request.body);
    const urls = body === undefined ? [] : imageUrls(body);
    if (codeOf(v) === 'IMAGE_DOWNLOAD_FAILED' && urls.every((u) => urlFault(u, trusted) !== undefined))
      fail(
        v,
        'ERR-INVALID-IMAGE-URL',
        'A start whose every image URL breaks a static rule got IMAGE_DOWNLOAD_FAILED',
        '400 INVALID_IMAGE_URL: "URL not HTTPS, custom port, or private address"',
      );
  }
}
