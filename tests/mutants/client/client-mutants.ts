/**
 * Client mutants: realistic bugs written into the typed client (src/sdk), each one or two textual
 * edits of one file. `npm run mutants:client` runs the client's own tests against a patched copy
 * per mutant; a mutant is killed when a test fails that passes on the unpatched copy.
 */
import type { ClientRuleId } from '../../sdk/spec-client-rules.ts';
import type { Edit } from '../source/source-mutant.ts';

export interface ClientMutant {
  readonly name: string;
  /** Path from the repository root, under src/sdk. */
  readonly file: string;
  readonly edits: readonly Edit[];
  readonly class: 'client-rules';
  /** The client rules (tests/sdk/spec-client-rules.ts) the bug breaks. */
  readonly breaks: readonly ClientRuleId[];
  /** One line: the bug, as a developer would have written it. */
  readonly does: string;
}

const policy = 'src/sdk/retry-policy.ts';
const send = 'src/sdk/send.ts';
const client = 'src/sdk/client.ts';
const options = 'src/sdk/options.ts';
const guard = 'src/sdk/browser-guard.ts';

const networkCap =
  "      if (retry >= o.maxRetries)\n        throw new TryOnNetworkError(\n          error.timeout ? 'CLIENT_TIMEOUT' : 'CLIENT_NETWORK',";
const networkPause = '      await pause(o, waitBeforeRetry(retry, undefined), call.signal);';
const longWait =
  '    if (retryAfter !== undefined && retryAfter * 1000 > o.maxRetryAfterMs) throw error;\n' +
  '    await pause(o, waitBeforeRetry(retry, retryAfter), call.signal);';
const readRetryAfter = "    const retryAfter = retryAfterSeconds(answer.headers['retry-after']);";

export const clientMutants: readonly ClientMutant[] = [
  {
    name: 'retries-400-unchanged',
    file: policy,
    class: 'client-rules',
    breaks: ['NO-RETRY-STATUSES'],
    does: 'a 400 is retried like a 5xx ("the image host may have been flaky")',
    edits: [{ find: 'new Set([429, 500, 502, 503, 409])', replace: 'new Set([400, 429, 500, 502, 503, 409])' }],
  },
  {
    name: 'retries-402-credits',
    file: policy,
    class: 'client-rules',
    breaks: ['NO-RETRY-STATUSES'],
    does: 'a 402 is retried in case the account was topped up meanwhile',
    edits: [
      {
        find: "  if (status === 409) return code === 'IDEMPOTENCY_KEY_IN_USE';",
        replace: "  if (status === 409) return code === 'IDEMPOTENCY_KEY_IN_USE';\n  if (status === 402) return true;",
      },
    ],
  },
  {
    name: 'retries-401',
    file: policy,
    class: 'client-rules',
    breaks: ['NO-RETRY-STATUSES'],
    does: 'a 401 is retried, in case a rotated key has not propagated yet',
    edits: [{ find: 'new Set([429, 500, 502, 503, 409])', replace: 'new Set([401, 429, 500, 502, 503, 409])' }],
  },
  {
    name: 'sync-uses-request-timeout',
    file: client,
    class: 'client-rules',
    breaks: ['SYNC-TIMEOUT'],
    does: 'the sync call is sent with the ordinary 30 s request timeout',
    edits: [{ find: 'timeoutMs: this.#o.syncTimeoutMs,', replace: 'timeoutMs: this.#o.requestTimeoutMs,' }],
  },
  {
    name: 'sync-timeout-floor-60s',
    file: options,
    class: 'client-rules',
    breaks: ['SYNC-TIMEOUT'],
    does: 'the sync timeout only has to outlast the 55 s server wait: 60 s is accepted',
    edits: [{ find: 'export const minSyncTimeoutMs = 70_000;', replace: 'export const minSyncTimeoutMs = 60_000;' }],
  },
  {
    name: 'start-uses-sync-timeout',
    file: client,
    class: 'client-rules',
    breaks: ['SYNC-TIMEOUT'],
    does: 'POST /tryons, copied from the sync call, waits the sync timeout instead of its own',
    edits: [
      {
        find: "headers: { 'content-type': 'application/json', 'idempotency-key': key },\n      timeoutMs: this.#o.requestTimeoutMs,",
        replace:
          "headers: { 'content-type': 'application/json', 'idempotency-key': key },\n      timeoutMs: this.#o.syncTimeoutMs,",
      },
    ],
  },
  {
    name: 'browser-guard-window-only',
    file: guard,
    class: 'client-rules',
    breaks: ['NO-BROWSER'],
    does: 'the browser guard looks at `window` only (a web worker or a document-only page passes)',
    edits: [{ find: "['window', 'document', 'importScripts', 'WorkerGlobalScope']", replace: "['window']" }],
  },
  {
    name: 'browser-guard-no-worker',
    file: guard,
    class: 'client-rules',
    breaks: ['NO-BROWSER'],
    does: 'the browser guard knows pages only: a web worker, which has no window, passes',
    edits: [
      { find: "['window', 'document', 'importScripts', 'WorkerGlobalScope']", replace: "['window', 'document']" },
    ],
  },
  {
    name: 'network-retried-forever',
    file: send,
    class: 'client-rules',
    breaks: ['STOP-AFTER-FEW'],
    does: 'a refused or reset connection is retried until it comes back; only timeouts count attempts',
    edits: [
      {
        find: networkCap,
        replace: networkCap.replace('if (retry >= o.maxRetries)', 'if (error.timeout && retry >= o.maxRetries)'),
      },
    ],
  },
  {
    name: 'network-backoff-flat',
    file: send,
    class: 'client-rules',
    breaks: ['BACKOFF'],
    does: 'a network failure is retried after 1 s every time: the backoff does not grow',
    edits: [{ find: networkPause, replace: '      await pause(o, waitBeforeRetry(0, undefined), call.signal);' }],
  },
  {
    name: 'retry-after-capped',
    file: send,
    class: 'client-rules',
    breaks: ['RETRY-AFTER'],
    does: 'a long Retry-After is cut to maxRetryAfterMs and the request sent again early',
    edits: [
      {
        find: longWait,
        replace: '    await pause(o, Math.min(waitBeforeRetry(retry, retryAfter), o.maxRetryAfterMs), call.signal);',
      },
    ],
  },
  {
    name: 'long-retry-after-falls-back-to-backoff',
    file: send,
    class: 'client-rules',
    breaks: ['RETRY-AFTER'],
    does: 'a Retry-After too long to wait is dropped and the plain 1, 2, 4 s backoff used instead',
    edits: [
      {
        find: longWait,
        replace:
          '    const usable = retryAfter !== undefined && retryAfter * 1000 > o.maxRetryAfterMs ? undefined : retryAfter;\n' +
          '    await pause(o, waitBeforeRetry(retry, usable), call.signal);',
      },
    ],
  },
  {
    name: 'retry-after-capped-60s',
    file: policy,
    class: 'client-rules',
    breaks: ['RETRY-AFTER'],
    does: 'Retry-After is trusted up to a minute, as a rate-limit window is: a longer one is read as 60 s',
    edits: [
      {
        find: 'if (retryAfter !== undefined) return retryAfter * 1000;',
        replace: 'if (retryAfter !== undefined) return Math.min(retryAfter, 60) * 1000;',
      },
    ],
  },
  {
    name: 'retry-after-429-503-only',
    file: send,
    class: 'client-rules',
    breaks: ['RETRY-AFTER'],
    does: 'Retry-After is read on 429 and 503 only; a 500 or 502 that sends one gets the plain backoff',
    edits: [
      {
        find: readRetryAfter,
        replace:
          '    const retryAfter = [429, 503].includes(answer.status)\n' +
          "      ? retryAfterSeconds(answer.headers['retry-after'])\n" +
          '      : undefined;',
      },
    ],
  },
  {
    name: 'new-key-per-retry',
    file: send,
    class: 'client-rules',
    breaks: ['SAME-KEY'],
    does: 'every attempt of a POST gets a fresh Idempotency-Key, so a retry can start (and charge) a second try-on',
    edits: [
      {
        find: '      answer = await sendOnce(attempt);',
        replace:
          "      const fresh = call.method === 'POST' && retry > 0 ? { 'idempotency-key': o.newIdempotencyKey() } : {};\n      answer = await sendOnce({ ...attempt, headers: { ...attempt.headers, ...fresh } });",
      },
    ],
  },
  {
    name: 'poll-interval-floor-1s',
    file: options,
    class: 'client-rules',
    breaks: ['SYNC-202-POLL'],
    does: 'a poll interval of 1 s is accepted ("faster is friendlier")',
    edits: [{ find: 'resolved.pollIntervalMs < 2_000 ||', replace: 'resolved.pollIntervalMs < 1_000 ||' }],
  },
];
