/**
 * Source mutants of the first classes: scoping (per account, not per key, not global), clients that retry as told
 * (Retry-After and the window), and asynchrony (a create that waits).
 */
import { store, starts, limiter } from './server-files.ts';
import type { SourceMutant } from './source-mutant.ts';

export const scopingAndWindowMutants: readonly SourceMutant[] = [
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
          "    deps.queue.enqueue(id, scenario);\n    while ((await deps.store.findTryOn(id))?.status === 'pending') await new Promise((r) => setTimeout(r, 25));\n",
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
];
