/**
 * Retries as the spec tells clients to (Errors rules 2 and 4): on 429, 500, 502, 503 and network
 * timeouts, with the same request (so the same Idempotency-Key), waiting Retry-After when present
 * and otherwise 1, 2, then 4 seconds. A small wrapper around `send`, after undici's retry interceptor.
 */
import type { Exchange } from './exchange.ts';
import type { Send, SendOptions } from './http-client.ts';
import { retryAfterMs } from './retry-after.ts';

export const retryStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503]);
export const backoffMs: readonly number[] = [1_000, 2_000, 4_000];

export interface RetryOptions {
  readonly sleep?: (ms: number) => Promise<void>;
  readonly onRetry?: (attempt: number, waitMs: number, previous: Exchange) => void;
  /** Cap on any one wait, so a hostile Retry-After cannot stall the run. */
  readonly maxWaitMs?: number;
  /**
   * A wait longer than this is not waited at all: the answer is returned as it came. For callers
   * that must not retry before Retry-After has passed but cannot afford a long wait (the suite).
   */
  readonly giveUpAboveMs?: number;
  /** Whether network failures (timeouts, resets) are retried too; default true. */
  readonly network?: boolean;
}

/** Wraps `send` so that retryable answers are retried up to three times. */
export function withRetry(send: Send, o: RetryOptions = {}): Send {
  const sleep = o.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  return async (options: SendOptions) => {
    let exchange = await send(options);
    const retryable = (ex: Exchange) =>
      (ex.response !== undefined || o.network !== false) &&
      shouldRetry(ex) &&
      !(ex.response && options.keep?.includes(ex.response.status));
    for (let attempt = 0; attempt < backoffMs.length && retryable(exchange); attempt++) {
      const asked = waitFor(exchange, attempt);
      // Stryker disable next-line ConditionalExpression: `asked > undefined` is false, as the guard makes it
      if (o.giveUpAboveMs !== undefined && asked > o.giveUpAboveMs) break;
      const wait = Math.min(asked, o.maxWaitMs ?? 65_000);
      o.onRetry?.(attempt + 1, wait, exchange);
      await sleep(wait);
      exchange = await send(options);
    }
    return exchange;
  };
}

export function shouldRetry(exchange: Exchange): boolean {
  // Stryker disable next-line StringLiteral: an absent error matches no network failure, whatever it defaults to
  if (!exchange.response) return /^timeout|ECONNRESET|UND_ERR_SOCKET/.test(exchange.error ?? '');
  return retryStatuses.has(exchange.response.status);
}

/** Retry-After (seconds or an HTTP-date) when the answer has one, else the spec's backoff step. */
export function waitFor(exchange: Exchange, attempt: number): number {
  const asked = retryAfterMs(exchange.response?.headers['retry-after']);
  if (asked !== undefined) return asked;
  // Stryker disable next-line ArithmeticOperator: the fallback 4 s is the last step itself
  return backoffMs[attempt] ?? backoffMs[backoffMs.length - 1] ?? 4_000;
}
