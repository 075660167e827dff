/**
 * Source mutants of the rule families: auth, validation, codes, idempotency, credits, state, results, sync,
 * addresses and limits, one realistic bug each.
 */
import { store, starts, limiter, request, queue, fetcher } from './server-files.ts';
import type { SourceMutant } from './source-mutant.ts';

export const familyMutants: readonly SourceMutant[] = [
  // ── the existing families ───────────────────────────────────────────────────────────────────
  {
    name: 'revoked-key-accepted',
    file: store,
    family: 'auth',
    breaks: ['AUTH-REVOKED-KEY-401'],
    does: 'revoking a key is a no-op',
    edits: [
      {
        find: 'revokeKeys: (accountId, now) => void q.revokeKeys.run(now, accountId),',
        replace: 'revokeKeys: (_accountId, _now) => undefined,',
      },
    ],
  },
  {
    name: 'rotation-keeps-old-key',
    file: store,
    family: 'auth',
    breaks: ['AUTH-ONE-ACTIVE-KEY'],
    does: 'a new key does not revoke the one before it: two active keys',
    edits: [
      { find: '      q.revokeKeys.run(now, accountId);\n      q.insertKey.run(', replace: '      q.insertKey.run(' },
    ],
  },
  {
    name: 'key-prefix-unchecked',
    file: 'src/server/domain/api-keys.ts',
    family: 'auth',
    breaks: ['ERR-INVALID-API-KEY'],
    does: "the prefix is the same for every key, so it is neither compared nor hashed: a key with another prefix and the right rest is taken for the account's key",
    edits: [
      {
        find: 'return at === keyPrefix.length && key.startsWith(keyPrefix)\n    ? key.slice(idStart, idStart + lookupIdLength)\n    : undefined;',
        replace: 'return key.slice(idStart, idStart + lookupIdLength);',
      },
      {
        find: "return hash('sha256', key, 'buffer');",
        replace: "return hash('sha256', key.slice(key.indexOf('_live_')), 'buffer');",
      },
    ],
  },
  {
    name: 'consent-truthy',
    file: request,
    family: 'validation',
    breaks: ['ERR-CONSENT-REQUIRED'],
    does: 'consent is accepted when truthy ("yes", 1), not only `true`',
    edits: [{ find: 'if (body.consent !== true) return', replace: 'if (!body.consent) return' }],
  },
  {
    name: 'title-of-120-refused',
    file: request,
    family: 'validation',
    breaks: ['CREATE-TITLE-OPTIONAL-UP-TO-120'],
    does: 'a title of exactly 120 characters is refused',
    edits: [{ find: '[...title].length > maxTitleCodePoints', replace: '[...title].length >= maxTitleCodePoints' }],
  },
  {
    name: 'both-sources-accepted',
    file: request,
    family: 'validation',
    breaks: ['CREATE-EXACTLY-ONE-SOURCE-PER-IMAGE'],
    does: 'a body with both a URL and an id for one image is accepted (the URL wins)',
    edits: [
      {
        find: '  if (url !== undefined && id !== undefined) return `Give exactly one of ${urlField} and ${idField}, not both.`;\n',
        replace: '',
      },
    ],
  },
  {
    name: 'expired-image-id-usable',
    file: starts,
    family: 'validation',
    breaks: ['RES-IMAGE-ID-INVALID-AFTER-EXPIRY'],
    does: 'an uploaded id is still usable after its 24 hours',
    edits: [{ find: ' || image.expiresAt <= deps.clock.now() ||', replace: ' ||' }],
  },
  {
    name: 'short-idempotency-keys-accepted',
    file: 'src/server/domain/idempotency.ts',
    family: 'validation',
    breaks: ['CREATE-IDEMPOTENCY-KEY-FORMAT', 'ERR-MISSING-IDEMPOTENCY-KEY'],
    does: 'an Idempotency-Key of 1 to 7 characters is accepted',
    edits: [{ find: '/^[A-Za-z0-9_-]{8,128}$/', replace: '/^[A-Za-z0-9_-]{1,128}$/' }],
  },
  {
    name: 'no-credits-as-start-failed',
    file: starts,
    family: 'codes',
    breaks: ['ERR-INSUFFICIENT-CREDITS'],
    does: 'an account without credits gets 502 START_FAILED instead of 402 INSUFFICIENT_CREDITS',
    edits: [{ find: "throw new ApiError('INSUFFICIENT_CREDITS');", replace: "throw new ApiError('START_FAILED');" }],
  },
  {
    name: 'replay-starts-new-tryon',
    file: starts,
    family: 'idempotency',
    breaks: ['CREATE-IDEMPOTENCY-REPLAY'],
    does: 'a bound Idempotency-Key is not looked up before the start: every request starts a new try-on',
    edits: [
      { find: '  if (bound) return replay(deps, bound.tryOnId, bound.fingerprint === print);', replace: '' },
      { find: '    if (late) return replay(deps, late.tryOnId, late.fingerprint === print);', replace: '' },
    ],
  },
  {
    name: 'reused-key-other-body-replays',
    file: starts,
    family: 'idempotency',
    breaks: ['CREATE-IDEMPOTENCY-DIFFERENT-BODY-IMPL-DEFINED'],
    does: 'a key reused with a different body replays the earlier try-on instead of 422 IDEMPOTENCY_KEY_REUSED',
    expected: {
      verdict: 'conforming',
      why: 'POST /tryons rule 4: "what happens when a key is reused with a different body: not shown"; returning the earlier try-on starts and charges nothing again (rule 3)',
    },
    edits: [{ find: "  if (!sameBody) throw new ApiError('IDEMPOTENCY_KEY_REUSED');\n", replace: '' }],
  },
  {
    name: 'credit-check-allows-zero',
    file: store,
    family: 'credits',
    breaks: ['ERR-INSUFFICIENT-CREDITS'],
    does: 'a start is let through with a balance of 0 (the balance goes negative)',
    edits: [
      { find: 'if (balance(accountId) < 1) return false;', replace: 'if (balance(accountId) < 0) return false;' },
    ],
  },
  {
    name: 'no-refund-on-generation-failure',
    file: store,
    family: 'credits',
    breaks: ['SVC-FAILED-TRYON-REFUNDED'],
    does: 'a try-on that ends `failed` keeps its credit',
    edits: [{ find: "      returnCredit(id, 'refund', now);\n", replace: '' }],
  },
  {
    name: 'refused-start-keeps-credit',
    file: starts,
    family: 'credits',
    breaks: ['STATE-NOT-STARTED-NO-CREDIT-NO-STATE'],
    does: 'a start refused after the credit was reserved (502 START_FAILED, 422 PERSON_PHOTO_REJECTED, …) keeps the credit',
    edits: [
      {
        find: "    if (error) throw new ApiError(error, undefined, error === 'UNAVAILABLE' ? { 'retry-after': '1' } : {});",
        replace:
          "    if (error) {\n      stored = true;\n      throw new ApiError(error, undefined, error === 'UNAVAILABLE' ? { 'retry-after': '1' } : {});\n    }",
      },
    ],
  },
  {
    name: 'new-tryon-starts-as-success',
    file: store,
    family: 'state',
    // The create still answers `pending` (it is built from the id alone); what shows is a success whose resultUrl serves nothing, and a generation failure that never shows.
    breaks: ['AUTH-RESULT-URL-PUBLIC', 'STATE-PENDING-TO-FAILED'],
    does: 'a new try-on is stored as `success` before it is generated (and then never is): its resultUrl serves no image, and a failing generation never shows `failed`',
    edits: [{ find: "VALUES (?, ?, 'pending', ?, ?, ?)", replace: "VALUES (?, ?, 'success', ?, ?, ?)" }],
  },
  {
    name: 'result-url-lives-forever',
    file: queue,
    family: 'results',
    breaks: ['RES-RESULT-URL-VALID-24H'],
    does: 'a result is kept, and served, long after its 24 hours',
    edits: [{ find: 'expiresAt: now + this.o.resultTtlMs,', replace: 'expiresAt: now + this.o.resultTtlMs * 1000,' }],
  },
  {
    name: 'results-without-ai-label',
    file: 'src/server/domain/images/composite-engine.ts',
    family: 'results',
    breaks: ['SVC-RESULT-AI-LABEL'],
    does: 'result images carry no AI label',
    edits: [{ find: '    .withXmp(aiLabelXmp);', replace: ';' }],
  },
  {
    name: 'sync-never-woken',
    file: 'src/server/domain/sync-waiters.ts',
    family: 'sync',
    breaks: ['SYNC-200-ON-SUCCESS'],
    does: 'a held sync request is not woken when its try-on finishes: it answers at the end of the whole wait (200 with the final state read then)',
    expected: {
      verdict: 'conforming',
      why: 'POST /tryons/sync: "holds the request open for up to about 55 seconds and returns the finished state in the same call"; "200 | try-on finished within the wait". Both hold: the answer is 200 with the final state, within the wait. When within the wait it comes is not promised. Kept as the conforming variant sync-answers-at-end-of-wait (npm run variants)',
    },
    edits: [{ find: "for (const held of woken) this.#settle(held, 'finished');", replace: 'void woken;' }],
  },

  // ── SSRF through names (issue 16): killed through the resolver convention of test control ────
  {
    name: 'resolved-address-unchecked',
    file: fetcher,
    family: 'validation',
    breaks: ['CREATE-URL-NO-PRIVATE-ADDRESS', 'ERR-INVALID-IMAGE-URL'],
    does: 'only IP literals are checked: a host name is resolved to connect, and its answers are never judged (a name that resolves to 10.0.0.1 is fetched)',
    edits: [
      {
        find: "      if (!check.trusted) {\n        const notPublic = addresses.find((address) => addressRange(address) !== 'unicast');\n        if (notPublic !== undefined) {\n          return invalidUrl(\n            `${host.name} resolves to ${notPublic}, which is not public unicast (${addressRange(notPublic)})`,\n          );\n        }\n      }\n",
        replace: '',
      },
    ],
  },
  {
    name: 'trusted-by-address',
    file: fetcher,
    family: 'validation',
    breaks: ['CREATE-URL-NO-PRIVATE-ADDRESS', 'ERR-INVALID-IMAGE-URL'],
    does: "a name whose answer is the trusted fixture host's address is trusted like the fixture origin: its private address is let through",
    edits: [
      {
        find: '      if (!check.trusted) {\n',
        replace:
          '      if (!check.trusted && !(trusted !== undefined && addresses.includes(new URL(trusted.origin).hostname))) {\n',
      },
    ],
  },
  {
    name: 'first-answer-only',
    file: fetcher,
    family: 'validation',
    breaks: ['CREATE-URL-NO-PRIVATE-ADDRESS'],
    does: "only a name's first answer is judged: a public first answer hides a private second one",
    expected: {
      verdict: 'equivalent',
      why: 'every answer a run may set through the resolver convention is private, loopback, reserved or documentation, and this server refuses each of them, so the first answer alone always refuses the name; only real DNS (a public first answer) tells the two apart, and a run never hands a target a public address',
    },
    edits: [
      {
        find: "const notPublic = addresses.find((address) => addressRange(address) !== 'unicast');",
        replace: "const notPublic = addresses.slice(0, 1).find((address) => addressRange(address) !== 'unicast');",
      },
    ],
  },
  {
    name: 'starts-limit-off-by-one',
    file: limiter,
    family: 'limits',
    breaks: ['LIMIT-STARTS-12-PER-MINUTE'],
    does: 'a window lets one request more than its limit through (13 starts a minute)',
    edits: [{ find: 'if (count >= limit) {', replace: 'if (count > limit) {' }],
  },
];
