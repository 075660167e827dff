/**
 * Retries as the spec tells clients to (Errors rules 2 and 4): on 429, 500, 502, 503 and network
 * timeouts, with the same request (so the same Idempotency-Key), waiting Retry-After when present
 * and otherwise 1, 2, then 4 seconds. A small wrapper around `send`, after undici's retry interceptor.
 */
import type { Exchange } from './exchange.ts';
import type { Send, SendOptions } from './http-client.ts';

export const retryStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503]);
export const backoffMs: readonly number[] = [1_000, 2_000, 4_000];

export interface RetryOptions {
  readonly sleep?: (ms: number) => Promise<void>;
  readonly onRetry?: (attempt: number, waitMs: number, previous: Exchange) => void;
  /** Cap on any one wait, so a hostile Retry-After cannot stall the run. */
  readonly maxWaitMs?: number;
}

/** Wraps `send` so that retryable answers are retried up to three times. */
export function withRetry(send: Send, o: RetryOptions = {}): Send {
  const sleep = o.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  return async (options: SendOptions) => {
    let exchange = await send(options);
    for (let attempt = 0; attempt < backoffMs.length && shouldRetry(exchange); attempt++) {
      const wait = Math.min(waitFor(exchange, attempt), o.maxWaitMs ?? 65_000);
      o.onRetry?.(attempt + 1, wait, exchange);
      await sleep(wait);
      exchange = await send(options);
    }
    return exchange;
  };
}

export function shouldRetry(exchange: Exchange): boolean {
  if (!exchange.response) return /^timeout|ECONNRESET|UND_ERR_SOCKET/.test(exchange.error ?? '');
  return retryStatuses.has(exchange.response.status);
}

/** Retry-After in whole seconds when the answer has one, else the spec's backoff step. */
export function waitFor(exchange: Exchange, attempt: number): number {
  const header = exchange.response?.headers['retry-after'];
  if (header !== undefined && /^\d+$/.test(header)) return Number(header) * 1000;
  return backoffMs[attempt] ?? backoffMs[backoffMs.length - 1] ?? 4_000;
}
