/**
 * The sync call's timeout ("Client timeout should be at least 70 seconds") and the ordinary calls'
 * own, against a loopback API that holds its answer. Vitest's fake timers stand in for the attempt's
 * deadline, so 70 s pass in milliseconds; retry waits go through an injected clock.
 */
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TryOnClient, type ClientClock, type TryOnClientOptions } from '../../src/sdk/index.ts';
import { answer, startScriptedApi, type ScriptedApi } from './scripted-api.ts';
import { minSyncTimeoutSeconds } from './spec-client-rules.ts';

const apiKey = 'vto_live_TimeoutKey_0123456789';
const input = {
  personImageUrl: 'https://img.test/p.jpg',
  garmentImageUrl: 'https://img.test/g.jpg',
  consent: true,
} as const;
const finished = { id: 'tr_t1', status: 'success', resultUrl: 'https://x.test/i/t1.jpg' };
const ordinaryTimeoutMs = 30_000;

const clock: ClientClock = { now: () => 0, sleep: () => new Promise((r) => setImmediate(r)) };

let api: ScriptedApi;
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  api = await startScriptedApi(() => 'hold');
});
afterEach(async () => {
  vi.useRealTimers();
  await api.close();
});

/** Lets real I/O run until `done()` holds (at most 5 s of real time). */
async function until(done: () => boolean, what: string): Promise<void> {
  const from = performance.now();
  while (!done()) {
    if (performance.now() - from > 5_000) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** The call's outcome so far: 'pending' until it settles. */
function watch(promise: Promise<unknown>): { state: () => unknown } {
  let outcome: unknown = 'pending';
  promise.then(
    (v) => void (outcome = v),
    (e: unknown) => void (outcome = e),
  );
  return { state: () => outcome };
}

const clientWith = (extra: Partial<TryOnClientOptions> = {}) =>
  new TryOnClient({ baseUrl: api.base, apiKey, clock, ...extra });

/** Moves fake time by `ms`, then lets the I/O it set off run. */
async function pass(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

describe('POST /tryons/sync: "Client timeout should be at least 70 seconds"', () => {
  it('a sync answer after 69.9 s of silence still ends the call, in one request', async () => {
    const call = watch(clientWith({ maxRetries: 0 }).tryOn(input));
    await until(() => api.held.length === 1, 'the sync request');
    await pass(minSyncTimeoutSeconds * 1000 - 100);
    expect(call.state(), 'the sync call should still be waiting at 69.9 s').toBe('pending');
    expect(api.received).toHaveLength(1);
    answer(api.held[0]!, { status: 200, body: finished });
    await until(() => call.state() !== 'pending', 'the answer');
    expect(call.state()).toMatchObject(finished);
  });

  it('syncTimeoutMs of exactly 70 s times out just after it, and is retried with the same key', async () => {
    const call = watch(clientWith({ syncTimeoutMs: 70_000, maxRetries: 1 }).tryOn(input));
    await until(() => api.held.length === 1, 'the sync request');
    await pass(69_990);
    expect(api.received).toHaveLength(1);
    await pass(20);
    // "If the connection drops, repeating the request with the same Idempotency-Key picks the try-on back up"
    await until(() => api.held.length === 2, 'the retried sync request');
    expect(api.received[1]?.idempotencyKey).toBe(api.received[0]?.idempotencyKey);
    answer(api.held[1]!, { status: 200, body: finished });
    await until(() => call.state() !== 'pending', 'the answer');
    expect(call.state()).toMatchObject(finished);
  });

  it('the default sync timeout ends a silent attempt with CLIENT_TIMEOUT, at 70 s or later', async () => {
    const call = watch(clientWith({ maxRetries: 0 }).tryOn(input));
    await until(() => api.held.length === 1, 'the sync request');
    await pass(minSyncTimeoutSeconds * 1000 - 1);
    expect(call.state()).toBe('pending');
    await pass(10 * 60_000);
    await until(() => call.state() !== 'pending', 'the timeout');
    expect(call.state()).toMatchObject({ name: 'TryOnNetworkError', code: 'CLIENT_TIMEOUT', attempts: 1 });
  });

  it.each([1, 30_000, 55_000, 60_000, 69_999])('refuses syncTimeoutMs %i at construction', (syncTimeoutMs) => {
    expect(() => clientWith({ syncTimeoutMs })).toThrow(RangeError);
  });
});

describe('the other calls keep their own timeout (requestTimeoutMs, default 30 s)', () => {
  const calls = {
    startTryOn: (c: TryOnClient) => c.startTryOn(input),
    getTryOn: (c: TryOnClient) => c.getTryOn('tr_t1'),
    uploadImage: (c: TryOnClient) => c.uploadImage({ bytes: new Uint8Array([0xff, 0xd8]), contentType: 'image/jpeg' }),
    getAccount: (c: TryOnClient) => c.getAccount(),
  };
  it.each(Object.keys(calls) as (keyof typeof calls)[])(
    '%s times out at 30 s, not at the sync timeout',
    async (name) => {
      const call = watch(calls[name](clientWith({ maxRetries: 0 })));
      await until(() => api.held.length === 1, 'the request');
      await pass(ordinaryTimeoutMs - 10);
      expect(call.state()).toBe('pending');
      await pass(20);
      await until(() => call.state() !== 'pending', `the ${name} timeout`);
      expect(call.state()).toMatchObject({ name: 'TryOnNetworkError', code: 'CLIENT_TIMEOUT', attempts: 1 });
    },
  );
});
