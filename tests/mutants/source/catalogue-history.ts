/**
 * Source mutants for state changed after first use: a revoked key, a rotated key, a limit raised or lowered.
 * The state machine's history commands judge them (src/suite/tryon-key-commands.ts, tryon-limit-commands.ts).
 */
import type { SourceMutant } from './source-mutant.ts';

const readCache = 'src/server/store/read-cache.ts';
const rateLimit = 'src/server/routes/rate-limit.ts';

export const historyMutants: readonly SourceMutant[] = [
  {
    name: 'revoked-key-cached',
    file: readCache,
    family: 'auth',
    class: 'history',
    breaks: ['AUTH-REVOKED-KEY-401'],
    does: 'a revocation writes the store but leaves the read cache alone: a key that made requests before it was revoked keeps its cached, unrevoked record and still reads and starts',
    edits: [
      {
        find: '    revokeKeys(accountId, now) {\n      return dropping(dropKeys, () => store.revokeKeys(accountId, now));\n',
        replace:
          '    revokeKeys(accountId, now) {\n      // Revocation only stamps revoked_at; the next lookup reads the row again.\n' +
          '      return store.revokeKeys(accountId, now);\n',
      },
    ],
  },
  {
    name: 'admitted-keys-remembered',
    file: rateLimit,
    family: 'auth',
    class: 'history',
    breaks: ['AUTH-ONE-ACTIVE-KEY', 'AUTH-REVOKED-KEY-401'],
    does: 'each rate-limited route remembers the Authorization headers it admitted (a polling client sends the same one again and again): a key rotated away or revoked after it was used there keeps working on that route',
    edits: [
      {
        find: "  return (request, reply) =>\n    whenReady(accountOf(ctx, request.headers.authorization), (accountId) => {\n      if (accountId === undefined) return new ApiError('INVALID_API_KEY');\n",
        replace:
          '  const admitted = new Map<string, string>();\n  return (request, reply) =>\n' +
          '    whenReady((request.headers.authorization && admitted.get(request.headers.authorization)) || ' +
          'accountOf(ctx, request.headers.authorization), (accountId) => {\n' +
          "      if (accountId === undefined) return new ApiError('INVALID_API_KEY');\n" +
          '      if (request.headers.authorization) admitted.set(request.headers.authorization, accountId);\n',
      },
    ],
  },
  {
    name: 'limits-memoised-per-account',
    file: rateLimit,
    family: 'limits',
    class: 'history',
    breaks: ['LIMIT-STARTS-RAISED-ON-REQUEST', 'ERR-RATE-LIMITED'],
    does: "each route reads an account's limits once, at its first request there, and keeps them (limits change rarely): a limit raised or lowered after the account's first request never takes effect",
    edits: [
      {
        find:
          '  return (accountId, reply) => {\n    const own = ctx.cached.limits(accountId);\n' +
          '    if (own !== undefined) return take(accountId, reply, own);\n',
        replace:
          '  const known = new Map<string, AccountLimits | null>();\n  return (accountId, reply) => {\n' +
          '    const own = known.has(accountId) ? known.get(accountId) : ctx.cached.limits(accountId);\n' +
          '    if (own !== undefined) known.set(accountId, own);\n' +
          '    if (own !== undefined) return take(accountId, reply, own);\n',
      },
    ],
  },
  {
    name: 'lowered-limit-overfull-window',
    file: 'src/server/domain/rate-limiter.ts',
    family: 'limits',
    class: 'history',
    breaks: ['ERR-RATE-LIMITED'],
    does: 'the window refuses when its count equals the limit (it never holds more, as long as the limit stays): after the limit is lowered below what the window already holds, every start passes until the window drains',
    edits: [{ find: 'if (count >= limit) {', replace: 'if (count === limit) {' }],
  },
  {
    name: 'verified-key-per-account',
    file: 'src/server/domain/verified-keys.ts',
    family: 'auth',
    class: 'history',
    breaks: ['RES-TRYON-ID-RETURNED-ON-CREATE', 'AUTH-ONE-ACTIVE-KEY', 'CREATE-IDEMPOTENCY-REPLAY'],
    does: "the key found to match is remembered per account (one active key per account) instead of per key record: once the account's old key was verified, its new key, after a rotation or a revocation, is compared with the old one and refused",
    edits: [
      {
        find: 'const verified = new WeakMap<KeyRecord, string>();',
        replace: 'const verified = new Map<string, string>();',
      },
      { find: 'const known = verified.get(record);', replace: 'const known = verified.get(record.accountId);' },
      { find: 'verified.set(record, presented);', replace: 'verified.set(record.accountId, presented);' },
    ],
  },
];
