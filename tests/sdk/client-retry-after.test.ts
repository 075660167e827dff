/**
 * Errors rule 4's last clause, "when `Retry-After` is present, wait that long instead", on every
 * retried status and for any length: a Retry-After is waited in full, however long, or the call ends
 * with the error; a retry never goes out before it. Waits go through an injected clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TryOnClient, type TryOnClientOptions } from '../../src/sdk/index.ts';
import { failWith, startScriptedApi, type ScriptedApi } from './scripted-api.ts';
import { fakeClock } from './fake-clock.ts';
import { retriedStatuses } from './spec-client-rules.ts';

const apiKey = 'vto_live_RetryAfterKey_0123456789';
const input = {
  personImageUrl: 'https://img.test/p.jpg',
  garmentImageUrl: 'https://img.test/g.jpg',
  consent: true,
} as const;
const hour = 3_600;

let api: ScriptedApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function startWith(status: number, retryAfter: string, extra: Partial<TryOnClientOptions> = {}) {
  api = await startScriptedApi(() => failWith(status, retryAfter));
  const clock = fakeClock({ bound: 40 });
  const client = new TryOnClient({ baseUrl: api.base, apiKey, clock, ...extra });
  const error = (await client.startTryOn(input).catch((e: unknown) => e)) as Record<string, unknown>;
  return { error, sleeps: clock.sleeps, sent: api.received.length };
}

describe('Retry-After is waited instead of the backoff, on every retried status', () => {
  it.each(retriedStatuses)('%i with Retry-After: 7 waits 7 s before each retry', async (status) => {
    const { error, sleeps, sent } = await startWith(status, '7');
    // "when `Retry-After` is present, wait that long instead"
    expect(sleeps, `each retry after a ${status} should wait the 7 s the server asked`).toEqual([7_000, 7_000, 7_000]);
    expect(sent).toBe(4);
    expect(error).toMatchObject({ status, retryAfterSeconds: 7 });
  });

  it.each(retriedStatuses)('%i with Retry-After: 0 is retried at once', async (status) => {
    const { sleeps, sent } = await startWith(status, '0');
    expect(sleeps).toEqual([0, 0, 0]);
    expect(sent).toBe(4);
  });
});

describe('a long Retry-After is waited in full or ends the call, never cut short', () => {
  it.each(retriedStatuses.flatMap((s) => [61, 65, 66, 120, 600, hour, 86_400].map((ra) => [s, ra] as const)))(
    '%i with Retry-After: %i and the default options',
    async (status, retryAfter) => {
      const { error, sleeps, sent } = await startWith(status, String(retryAfter));
      // "when `Retry-After` is present, wait that long instead": no retry before it has passed.
      expect(sent, 'every request after the first should follow one wait').toBe(sleeps.length + 1);
      for (const wait of sleeps)
        expect(wait, 'a retry came before Retry-After passed').toBeGreaterThanOrEqual(retryAfter * 1000);
      expect(error).toMatchObject({ name: 'TryOnApiError', status, retryAfterSeconds: retryAfter });
    },
  );

  it.each(retriedStatuses.flatMap((s) => [120, hour, 86_400].map((ra) => [s, ra] as const)))(
    '%i with Retry-After: %i and maxRetryAfterMs of 2 days: waited in full',
    async (status, retryAfter) => {
      const { sleeps, sent } = await startWith(status, String(retryAfter), { maxRetryAfterMs: 2 * 86_400_000 });
      expect(sleeps).toEqual([retryAfter * 1000, retryAfter * 1000, retryAfter * 1000]);
      expect(sent).toBe(4);
    },
  );

  it('a Retry-After of exactly the default maxRetryAfterMs (65 s) is waited', async () => {
    const { sleeps, sent } = await startWith(503, '65');
    expect(sleeps).toEqual([65_000, 65_000, 65_000]);
    expect(sent).toBe(4);
  });

  it('a Retry-After over maxRetryAfterMs ends the call after one request, no wait', async () => {
    const { error, sleeps, sent } = await startWith(429, '120', { maxRetryAfterMs: 60_000 });
    expect(error).toMatchObject({ status: 429, attempts: 1, retryAfterSeconds: 120 });
    expect(sleeps).toEqual([]);
    expect(sent).toBe(1);
  });

  it('maxRetryAfterMs bounds Retry-After only: a small one keeps the 1, 2, 4 s backoff', async () => {
    api = await startScriptedApi(() => failWith(502));
    const clock = fakeClock({ bound: 40 });
    const client = new TryOnClient({ baseUrl: api.base, apiKey, clock, maxRetryAfterMs: 0 });
    await expect(client.startTryOn(input)).rejects.toMatchObject({ status: 502, attempts: 4 });
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000]);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])(
    'refuses maxRetryAfterMs %s at construction (a timer fires at once past 2^31-1 ms)',
    (maxRetryAfterMs) => {
      expect(() => new TryOnClient({ baseUrl: 'http://127.0.0.1:9/api/v1', apiKey, maxRetryAfterMs })).toThrow(
        RangeError,
      );
    },
  );
});
