/**
 * Every rule the spec gives a client, in one table, with the spec's own words. The client's tests
 * and its mutants (tests/mutants/client) derive their statuses, waits and globals from here, never
 * from the client's source: a test that read `retryStatuses` from src/sdk could not fail when a bug
 * changes that list.
 */

export type ClientRuleId =
  | 'RETRY-STATUSES'
  | 'RETRY-NETWORK'
  | 'NO-RETRY-STATUSES'
  | 'SAME-KEY'
  | 'BACKOFF'
  | 'STOP-AFTER-FEW'
  | 'RETRY-AFTER'
  | 'SYNC-TIMEOUT'
  | 'SYNC-202-POLL'
  | 'POLL-GIVE-UP'
  | 'NO-BROWSER';

export interface ClientRule {
  readonly id: ClientRuleId;
  /** Where the sentence stands in the spec. */
  readonly where: string;
  /** The spec's words. */
  readonly says: string;
  /** How the client meets it, where the spec leaves a choice. */
  readonly reading: string;
}

/** "Retry with the same Idempotency-Key on 429, 500, 502, 503 and network timeouts". */
export const retriedStatuses = [429, 500, 502, 503] as const;
/** "Do not retry 400, 401, 402, 403, 413 or 422 unchanged." */
export const neverRetriedStatuses = [400, 401, 402, 403, 413, 422] as const;
/** "Recommended backoff: 1 second, then 2, then 4". */
export const backoffSeconds = [1, 2, 4] as const;
/** "Client timeout should be at least 70 seconds." */
export const minSyncTimeoutSeconds = 70;
/** "poll `pollUrl` every 2-3 seconds". */
export const pollSeconds = { min: 2, max: 3 } as const;

/**
 * The globals of a browser page or web worker, any one of which refuses the client: a page has
 * `window` and `document`; every worker scope (dedicated, shared, service, module) has
 * `importScripts` and `WorkerGlobalScope`; React Native sets `window` too. `navigator` is not one:
 * Node has it since v21, as Deno and Bun do, and a server may hold a key.
 */
export const browserGlobals = ['window', 'document', 'importScripts', 'WorkerGlobalScope'] as const;

export const clientRules: readonly ClientRule[] = [
  {
    id: 'RETRY-STATUSES',
    where: 'Errors, rule 2',
    says: 'Retry with the same Idempotency-Key on 429, 500, 502, 503 and network timeouts',
    reading: 'each of 429, 500, 502, 503 is sent again, same request, until the attempts run out',
  },
  {
    id: 'RETRY-NETWORK',
    where: 'Errors, rule 2; POST /tryons/sync: "If the connection drops, repeating the request …"',
    says: 'Retry with the same Idempotency-Key on … network timeouts',
    reading: 'a timeout, a dropped or refused connection is sent again, same request',
  },
  {
    id: 'NO-RETRY-STATUSES',
    where: 'Errors, rule 3',
    says: 'Do not retry 400, 401, 402, 403, 413 or 422 unchanged.',
    reading: 'one request, then the typed error with its code',
  },
  {
    id: 'SAME-KEY',
    where: 'Errors, rule 2; POST /tryons headers',
    says: 'Idempotency-Key … New per try-on; the same when retrying.',
    reading: 'every attempt of one call carries one key; two calls carry two keys',
  },
  {
    id: 'BACKOFF',
    where: 'Errors, rule 4',
    says: 'Recommended backoff: 1 second, then 2, then 4',
    reading: 'waits of 1, 2 and 4 s between attempts, for answers and network failures alike',
  },
  {
    id: 'STOP-AFTER-FEW',
    where: 'Errors, rule 4',
    says: 'and stop after a few attempts',
    reading: 'at most 1 + maxRetries requests (default 3 retries, at most 5), for answers and network failures',
  },
  {
    id: 'RETRY-AFTER',
    where: 'Errors, rule 4; Limits',
    says: 'when `Retry-After` is present, wait that long instead',
    reading: 'on any retried status; a wait longer than maxRetryAfterMs ends the call, never an earlier retry',
  },
  {
    id: 'SYNC-TIMEOUT',
    where: 'POST /tryons/sync; Limits',
    says: 'Client timeout should be at least 70 seconds.',
    reading: 'each sync attempt waits syncTimeoutMs (>= 70 s); other calls keep requestTimeoutMs',
  },
  {
    id: 'SYNC-202-POLL',
    where: 'POST /tryons/sync',
    says: 'Clients must handle both 200 and 202 and, on 202, poll `pollUrl` every 2-3 seconds.',
    reading: 'pollIntervalMs is 2000 to 3000',
  },
  {
    id: 'POLL-GIVE-UP',
    where: 'GET /tryons/{id}',
    says: 'Polling guidance: every 2-3 seconds; give up after a few minutes.',
    reading: 'giveUpAfterMs is 1 to 15 minutes',
  },
  {
    id: 'NO-BROWSER',
    where: 'What the service does; Authentication, rule 5',
    says: 'The API key must never reach a browser or mobile app bundle.',
    reading: `the constructor refuses where any of ${browserGlobals.join(', ')} is defined`,
  },
];
