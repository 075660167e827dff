/**
 * The client's options, with every default filled in once and frozen (house style). The numbers
 * are the spec's: sync client timeout "at least 70 seconds", polling "every 2-3 seconds", "give up
 * after a few minutes", backoff "1 second, then 2, then 4".
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { backoffMs } from './retry-policy.ts';

/** Time as the client sees it; tests pass one in so that nothing waits wall-clock seconds. */
export interface ClientClock {
  now(): number;
  /** Waits `ms`; rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface TryOnClientOptions {
  /** The API base URL, ending in `/api/v1` (the spec's {base_url}). The key is sent to its origin only. */
  readonly baseUrl: string;
  /** The account's API key. Read it from the environment on your server; never ship it to a browser. */
  readonly apiKey: string;
  /**
   * Timeout of one `POST /tryons/sync` attempt, from sending to the answer's last byte; default 75 s,
   * and never less than 70 s (the spec's minimum).
   */
  readonly syncTimeoutMs?: number;
  /** Timeout of one attempt of every other request, from sending to the answer's last byte; default 30 s. */
  readonly requestTimeoutMs?: number;
  /** Interval between two polls of a pending try-on; default 2 s, between 2 and 3 s. */
  readonly pollIntervalMs?: number;
  /** Polling stops with TryOnGaveUpError after this; default 5 minutes. */
  readonly giveUpAfterMs?: number;
  /** Retries after the first attempt; default 3 (waits of 1, 2 and 4 s), at most 5. */
  readonly maxRetries?: number;
  /**
   * A Retry-After longer than this is not waited: the call ends with the error instead of retrying early.
   * Default 65 s; at most 2^31-1 ms (what a timer holds). It bounds Retry-After only, not the backoff.
   */
  readonly maxRetryAfterMs?: number;
  /** An undici dispatcher (Agent, ProxyAgent, MockAgent); default undici's global one. */
  readonly dispatcher?: Dispatcher;
  readonly clock?: ClientClock;
  /** Makes the Idempotency-Key of a new try-on (8-128 letters, digits, `_` or `-`); default a random UUID. */
  readonly newIdempotencyKey?: () => string;
  /** Sent as User-Agent. */
  readonly userAgent?: string;
}

export type ResolvedOptions = Readonly<Required<Omit<TryOnClientOptions, 'dispatcher'>>> & {
  readonly dispatcher?: Dispatcher;
};

export const systemClock: ClientClock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal) => delay(ms, undefined, signal ? { signal } : {}),
});

export const minSyncTimeoutMs = 70_000;

const maxTimerMs = 2 ** 31 - 1;

/** Fills defaults and checks ranges; a value out of range is a RangeError at construction, not a surprise later. */
export function resolveOptions(o: TryOnClientOptions): ResolvedOptions {
  const base = new URL(o.baseUrl);
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    throw new RangeError(`baseUrl must be an http(s) URL, got ${o.baseUrl}`);
  // A bare `?` or `#` parses to an empty search or hash, yet would still end up in every request's URL.
  if (base.username !== '' || base.password !== '' || /[?#]/.test(o.baseUrl)) {
    throw new RangeError('baseUrl must have no credentials, query or fragment (the key goes in a header)');
  }
  if (typeof o.apiKey !== 'string' || o.apiKey.trim() === '') throw new RangeError('apiKey is required');
  const resolved = {
    baseUrl: o.baseUrl.replace(/\/+$/, ''),
    apiKey: o.apiKey,
    syncTimeoutMs: o.syncTimeoutMs ?? 75_000,
    requestTimeoutMs: o.requestTimeoutMs ?? 30_000,
    pollIntervalMs: o.pollIntervalMs ?? 2_000,
    giveUpAfterMs: o.giveUpAfterMs ?? 5 * 60_000,
    maxRetries: o.maxRetries ?? backoffMs.length,
    maxRetryAfterMs: o.maxRetryAfterMs ?? 65_000,
    clock: o.clock ?? systemClock,
    newIdempotencyKey: o.newIdempotencyKey ?? (() => randomUUID()),
    userAgent: o.userAgent ?? 'tryon-conformance-client',
    ...(o.dispatcher && { dispatcher: o.dispatcher }),
  };
  const timeouts = { syncTimeoutMs: resolved.syncTimeoutMs, requestTimeoutMs: resolved.requestTimeoutMs };
  for (const [name, ms] of Object.entries(timeouts)) {
    // A timer takes at most 2^31-1 ms; a longer one would fire at once.
    if (!Number.isInteger(ms) || ms < 1 || ms > maxTimerMs) throw new RangeError(`${name} must be 1 to ${maxTimerMs}`);
  }
  const { maxRetryAfterMs } = resolved;
  // A longer wait would fire at once, retrying before Retry-After has passed.
  if (!Number.isInteger(maxRetryAfterMs) || maxRetryAfterMs < 0 || maxRetryAfterMs > maxTimerMs)
    throw new RangeError(`maxRetryAfterMs must be an integer from 0 to ${maxTimerMs}`);
  if (resolved.syncTimeoutMs < minSyncTimeoutMs)
    throw new RangeError(
      `syncTimeoutMs must be at least ${minSyncTimeoutMs} (spec: "Client timeout should be at least 70 seconds")`,
    );
  if (resolved.pollIntervalMs < 2_000 || resolved.pollIntervalMs > 3_000)
    throw new RangeError('pollIntervalMs must be from 2000 to 3000 (spec: "poll every 2-3 seconds")');
  if (resolved.giveUpAfterMs < 60_000 || resolved.giveUpAfterMs > 15 * 60_000)
    throw new RangeError('giveUpAfterMs must be from 1 to 15 minutes (spec: "give up after a few minutes")');
  if (!Number.isInteger(resolved.maxRetries) || resolved.maxRetries < 0 || resolved.maxRetries > 5)
    throw new RangeError('maxRetries must be an integer from 0 to 5 (spec: "stop after a few attempts")');
  return Object.freeze(resolved);
}
