/**
 * The source mutants (issue 12): realistic bugs written into the reference server's domain rules
 * and store, each one edit of one file, grouped by class. `npm run mutants:source` runs the suite
 * against a patched copy per mutant (tests/mutants/source/run-source-mutants.ts).
 */
import { boundaryMutants } from './catalogue-boundaries.ts';
import { formatMutants } from './catalogue-formats.ts';
import { historyMutants } from './catalogue-history.ts';
import { rememberedMutants } from './catalogue-remembered.ts';
import { concurrencyMutants } from './catalogue-concurrency.ts';
import { rareBranchMutants } from './catalogue-rare-branches.ts';
import { parsingMutants } from './catalogue-parsing.ts';
import { addressMutants } from './catalogue-addresses.ts';
import { codeMutants } from './catalogue-codes.ts';
import type { SourceMutant } from './source-mutant.ts';

const store = 'src/server/store/sqlite-store.ts';
const starts = 'src/server/domain/tryon-starts.ts';
const limiter = 'src/server/domain/rate-limiter.ts';
const request = 'src/server/domain/create-request.ts';
const queue = 'src/server/domain/generation-queue.ts';
const fetcher = 'src/server/domain/image-fetch/image-fetcher.ts';

export const sourceMutants: readonly SourceMutant[] = [
  // ── scoping: per account, not per key, not global ────────────────────────────────────────────
  {
    name: 'idempotency-keys-global',
    file: store,
    family: 'idempotency',
    class: 'scoping',
    breaks: ['CREATE-NEW-KEY-NEW-TRYON', 'AUTH-FOREIGN-TRYON-NOT-FOUND'],
    does: "an Idempotency-Key is looked up in every account's keys: another account's try-on comes back, or a 422 for a key this account never used",
    edits: [
      {
        find: "FROM idempotency WHERE account_id = ? AND key = ?'",
        replace: "FROM idempotency WHERE (account_id = ? OR 1) AND key = ? ORDER BY expires_at LIMIT 1'",
      },
    ],
  },
  {
    name: 'rotation-tops-up-free-credits',
    file: store,
    family: 'credits',
    class: 'scoping',
    breaks: ['ACCOUNT-FREE-CREDITS-ONCE'],
    does: 'a new key tops the balance back up to the 20 free credits (a key rotation after credits were spent re-grants them)',
    edits: [
      {
        find: '      q.revokeKeys.run(now, accountId);\n      q.insertKey.run(lookupId, accountId, hash, now);',
        replace:
          "      q.revokeKeys.run(now, accountId);\n      q.insertKey.run(lookupId, accountId, hash, now);\n      const spent = 20 - balance(accountId);\n      if (spent > 0) q.ledger.run(accountId, spent, 'grant', null, now);",
      },
    ],
  },
  {
    name: 'rotation-grants-free-credits',
    file: store,
    family: 'credits',
    class: 'scoping',
    breaks: ['ACCOUNT-FREE-CREDITS-ONCE'],
    does: 'every new key of an account adds 20 free credits, not only the first',
    edits: [
      {
        find: '      q.insertKey.run(lookupId, accountId, hash, now);\n    }),',
        replace:
          "      q.insertKey.run(lookupId, accountId, hash, now);\n      q.ledger.run(accountId, 20, 'grant', null, now);\n    }),",
      },
    ],
  },
  {
    name: 'starts-window-global',
    file: limiter,
    family: 'limits',
    class: 'scoping',
    breaks: ['LIMIT-RATES-PER-ACCOUNT'],
    does: "one window per bucket for all accounts: one account's starts use up another's",
    edits: [
      { find: 'let log = logs.get(accountId);', replace: "let log = logs.get('');" },
      { find: 'logs.set(accountId, log);', replace: "logs.set('', log);" },
    ],
  },
  {
    name: 'foreign-image-id-usable',
    file: starts,
    family: 'auth',
    class: 'scoping',
    breaks: ['AUTH-FOREIGN-IMAGE-ID-INVALID'],
    does: "an image id is checked for existence and expiry but not for its account: another account's upload can be used",
    edits: [
      {
        find: 'if (!image || image.accountId !== accountId || image.expiresAt',
        replace: 'if (!image || image.expiresAt',
      },
      { find: 'if (!image?.bytes || image.accountId !== accountId) throw', replace: 'if (!image?.bytes) throw' },
    ],
  },
  {
    name: 'credit-reserved-on-any-account',
    file: store,
    family: 'credits',
    class: 'scoping',
    breaks: ['ACCOUNT-OWN-CREDIT-BALANCE', 'SVC-FAILED-TRYON-REFUNDED', 'STATE-NOT-STARTED-NO-CREDIT-NO-STATE'],
    does: 'a credit given back (a failed try-on, a start refused) goes to the account that made the first reservation ever',
    edits: [
      {
        find: 'reservation: db.prepare("SELECT account_id FROM ledger WHERE ref = ? AND kind = \'reserve\'"),',
        replace:
          "reservation: db.prepare(\"SELECT (SELECT account_id FROM ledger WHERE kind = 'reserve' ORDER BY seq LIMIT 1) AS account_id FROM ledger WHERE ref = ? AND kind = 'reserve'\"),",
      },
    ],
  },

  // ── retrying clients: a Retry-After that can be honoured ─────────────────────────────────────
  {
    name: 'refused-starts-fill-the-window',
    file: limiter,
    family: 'limits',
    class: 'retrying-clients',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    does: 'a refused request is counted in the window too, while Retry-After still names the time the oldest counted request leaves: a client that waits as told is refused again',
    edits: [
      {
        find: '      const oldest = requestAt(log, count - limit) ?? now;\n      return {',
        replace: '      const oldest = requestAt(log, count - limit) ?? now;\n      append(log, now);\n      return {',
      },
    ],
  },
  {
    name: 'retry-after-rounded-down',
    file: limiter,
    family: 'limits',
    class: 'retrying-clients',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    does: 'Retry-After is rounded down: waiting it leaves the oldest request still in the window',
    edits: [
      {
        find: 'retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000))',
        replace: 'retryAfterSeconds: Math.max(1, Math.floor((oldest + windowMs - now) / 1000))',
      },
    ],
  },
  {
    name: 'retry-after-from-first-request-ever',
    file: limiter,
    family: 'limits',
    class: 'retrying-clients',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    does: "Retry-After is counted from the log's first entry, which has long left the window once the account has been busy for a while: right in the first window, too short later",
    edits: [
      { find: 'const oldest = requestAt(log, count - limit) ?? now;', replace: 'const oldest = log.times[0] ?? now;' },
    ],
  },
  {
    name: 'window-expires-only-when-empty',
    file: limiter,
    family: 'limits',
    class: 'retrying-clients',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    does: 'old requests leave the window only once all of them have: after Retry-After the window is still full',
    edits: [
      {
        find: 'while (log.head < times.length && (times[log.head] ?? now) <= now - windowMs) log.count -= counts[log.head++] ?? 0;',
        replace: 'if ((times[times.length - 1] ?? now) <= now - windowMs) [log.head, log.count] = [times.length, 0];',
      },
    ],
  },
  {
    name: 'retry-after-from-oldest-in-window',
    file: limiter,
    family: 'limits',
    class: 'retrying-clients',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    does: 'Retry-After counts from the oldest request in the window instead of the one that must leave for one more to fit',
    edits: [
      {
        find: 'const oldest = requestAt(log, count - limit) ?? now;',
        replace: 'const oldest = log.times[log.head] ?? now;',
      },
    ],
  },
  {
    name: 'retry-after-full-window',
    file: limiter,
    family: 'limits',
    class: 'retrying-clients',
    breaks: ['LIMIT-429-RETRY-AFTER'],
    does: "Retry-After always names the end of the newest request's minute (up to 60 s): longer than needed, but a client that waits it gets through",
    expected: {
      verdict: 'conforming',
      why: 'Limits: "Over a rate limit the response is 429 `RATE_LIMITED` with a `Retry-After` header in seconds." The spec promises seconds after which the request goes through, not the shortest such wait',
    },
    edits: [
      {
        find: 'const oldest = requestAt(log, count - limit) ?? now;',
        replace: 'const oldest = log.times[log.times.length - 1] ?? now;',
      },
    ],
  },

  // ── asynchrony ──────────────────────────────────────────────────────────────────────────────
  {
    name: 'create-waits-for-generation',
    file: starts,
    family: 'state',
    class: 'asynchrony',
    breaks: ['CREATE-RETURNS-IMMEDIATELY'],
    does: 'POST /tryons answers `pending` only once the generation has finished',
    edits: [
      {
        find: '    deps.queue.enqueue(id, scenario);\n',
        replace:
          "    deps.queue.enqueue(id, scenario);\n    while (deps.store.findTryOn(id)?.status === 'pending') await new Promise((r) => setTimeout(r, 25));\n",
      },
    ],
  },
  {
    name: 'create-waits-for-engine-slot',
    file: starts,
    family: 'state',
    class: 'asynchrony',
    breaks: ['CREATE-RETURNS-IMMEDIATELY'],
    does: "POST /tryons waits out the engine's latency before it answers (the generation is queued only after the wait)",
    edits: [
      {
        find: '    deps.queue.enqueue(id, scenario);\n',
        replace:
          "    await new Promise((r) => setTimeout(r, scenario === 'slow-generation' ? deps.settings.slowGenerationMs : deps.settings.generationLatencyMs));\n    deps.queue.enqueue(id, scenario);\n",
      },
    ],
  },

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
  ...formatMutants,
  ...boundaryMutants,
  ...historyMutants,
  ...rememberedMutants,
  ...concurrencyMutants,
  ...rareBranchMutants,
  ...parsingMutants,
  ...addressMutants,
  ...codeMutants,
];

/** `--quick`: one mutant of each new class, fast to kill (the sample CI runs). */
export const quickSourceMutants: readonly string[] = [
  'idempotency-keys-global',
  'refused-starts-fill-the-window',
  'create-waits-for-generation',
  'revoked-key-cached',
  'decode-verdict-by-prefix',
  'sync-deadline-of-the-oldest',
  'unavailable-start-keeps-credit',
  'ai-label-xpacket-unclosed',
  'nat64-judged-public',
];
