/**
 * The client's retry rules (spec, Errors rules 2-4) against a scripted API on loopback, for every
 * status of each list and every call: what is sent again, with which Idempotency-Key, after which
 * waits, and when it stops. The lists and waits come from tests/sdk/spec-client-rules.ts, the waits
 * go through an injected clock (no real wait), and a client that never stops is cut off by it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TryOnClient, type TryOnClientOptions } from '../../src/sdk/index.ts';
import { failWith, startScriptedApi, type Received, type Reply, type ScriptedApi } from './scripted-api.ts';
import { fakeClock } from './fake-clock.ts';
import { backoffSeconds, neverRetriedStatuses, retriedStatuses } from './spec-client-rules.ts';

const apiKey = 'vto_live_RulesTestKey_0123456789';
const input = {
  personImageUrl: 'https://img.test/p.jpg',
  garmentImageUrl: 'https://img.test/g.jpg',
  consent: true,
} as const;
/** More waits than any conforming client takes: past this, the clock ends the call. */
const sleepBound = 40;

/** Every call of the client, each sending one request per attempt. */
const calls = {
  startTryOn: (c: TryOnClient) => c.startTryOn(input),
  tryOn: (c: TryOnClient) => c.tryOn(input),
  getTryOn: (c: TryOnClient) => c.getTryOn('tr_rules1'),
  uploadImage: (c: TryOnClient) =>
    c.uploadImage({ bytes: new Uint8Array([0xff, 0xd8, 0xff]), contentType: 'image/jpeg' }),
  getAccount: (c: TryOnClient) => c.getAccount(),
} as const;
type CallName = keyof typeof calls;
const callNames = Object.keys(calls) as CallName[];
const posts: readonly CallName[] = ['startTryOn', 'tryOn'];

let api: ScriptedApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function run(script: (r: Received, n: number) => Reply, call: CallName, extra: Partial<TryOnClientOptions> = {}) {
  api = await startScriptedApi(script);
  const clock = fakeClock({ bound: sleepBound });
  const client = new TryOnClient({ baseUrl: api.base, apiKey, clock, ...extra });
  const error = await calls[call](client).then(
    (v) => ({ resolved: v }),
    (e: unknown) => e as Record<string, unknown>,
  );
  return { error, clock, received: api.received };
}

const ms = (seconds: readonly number[]) => seconds.map((s) => s * 1000);
const each = <T>(xs: readonly T[]) => xs.flatMap((x) => callNames.map((c) => [x, c] as const));

describe('Errors rule 2: 429, 500, 502 and 503 are retried with the same key, backing off 1, 2, 4 s', () => {
  it.each(each(retriedStatuses))('%i on %s', async (status, call) => {
    const { error, clock, received } = await run(() => failWith(status), call);
    // "Recommended backoff: 1 second, then 2, then 4, and stop after a few attempts"
    expect(error, `a ${status} answered every time should end with its typed error`).toMatchObject({
      name: 'TryOnApiError',
      status,
      attempts: backoffSeconds.length + 1,
    });
    expect(received, 'the request should be sent once, then once after each wait').toHaveLength(4);
    expect(clock.sleeps, 'the waits between attempts should be 1, 2 and 4 s').toEqual(ms(backoffSeconds));
    // "Retry with the same Idempotency-Key on 429, 500, 502, 503"
    if (posts.includes(call)) expect(new Set(received.map((r) => r.idempotencyKey)).size).toBe(1);
  });

  it.each(each(retriedStatuses))('%i on %s, then 200: the retry succeeds', async (status, call) => {
    const ok = { id: 'tr_rules1', status: 'success', resultUrl: 'https://x.test/i/1.jpg', credits: 3 };
    const body =
      call === 'startTryOn' ? { id: 'tr_rules1', status: 'pending', pollUrl: '/api/v1/tryons/tr_rules1' } : ok;
    const uploaded = { id: 'img_1', expiresAt: '2030-01-01T00:00:00Z' };
    const { error, received } = await run(
      (_r, n) => (n === 0 ? failWith(status) : { status: 200, body: call === 'uploadImage' ? uploaded : body }),
      call,
    );
    expect(error, 'the retried request should end the call with its answer').toHaveProperty('resolved');
    expect(received).toHaveLength(2);
    expect(received[1]?.idempotencyKey).toBe(received[0]?.idempotencyKey);
  });
});

describe('Errors rule 3: 400, 401, 402, 403, 413 and 422 are never retried unchanged', () => {
  it.each(each(neverRetriedStatuses))('%i on %s', async (status, call) => {
    const { error, clock, received } = await run(() => failWith(status), call);
    // "Do not retry 400, 401, 402, 403, 413 or 422 unchanged."
    expect(error, `a ${status} should end the call at once with its code`).toMatchObject({
      name: 'TryOnApiError',
      status,
      attempts: 1,
    });
    expect(received, `a ${status} should not be sent again`).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it.each(neverRetriedStatuses)('%i with a Retry-After header is still not retried', async (status) => {
    const { error, received } = await run(() => failWith(status, '1'), 'startTryOn');
    expect(error).toMatchObject({ status, attempts: 1 });
    expect(received).toHaveLength(1);
  });
});

describe('Errors rule 2: network failures are retried with the same key, a few times', () => {
  it.each(callNames)('a connection dropped every time on %s: 4 attempts, 1, 2, 4 s apart', async (call) => {
    const { error, clock, received } = await run(() => 'drop', call);
    // "Retry with the same Idempotency-Key on … network timeouts"; "stop after a few attempts"
    expect(error).toMatchObject({ name: 'TryOnNetworkError', code: 'CLIENT_NETWORK', attempts: 4 });
    expect(received).toHaveLength(4);
    expect(clock.sleeps).toEqual(ms(backoffSeconds));
    if (posts.includes(call)) expect(new Set(received.map((r) => r.idempotencyKey)).size).toBe(1);
  });

  it('a refused connection with the default retries stops after 4 attempts', async () => {
    const gone = await startScriptedApi(() => 'drop');
    await gone.close();
    const clock = fakeClock({ bound: sleepBound });
    const client = new TryOnClient({ baseUrl: gone.base, apiKey, clock });
    const error = await client.getAccount().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TryOnNetworkError', code: 'CLIENT_NETWORK', attempts: 4 });
    expect(clock.sleeps).toEqual(ms(backoffSeconds));
  });

  it('an attempt that times out is retried after 1, 2, 4 s, then CLIENT_TIMEOUT', async () => {
    const { error, clock, received } = await run(() => 'hold', 'startTryOn', { requestTimeoutMs: 25 });
    expect(error).toMatchObject({ name: 'TryOnNetworkError', code: 'CLIENT_TIMEOUT', attempts: 4 });
    expect(error).toHaveProperty('message', 'timed out: no complete answer within 25 ms');
    // On a busy machine a 25 ms attempt may end before its request reaches the server: at most 4 arrive.
    expect(received.length).toBeLessThanOrEqual(4);
    expect(clock.sleeps).toEqual(ms(backoffSeconds));
    expect(new Set(received.map((r) => r.idempotencyKey)).size).toBeLessThanOrEqual(1);
  });
});

describe('Errors rule 4: stop after a few attempts, and never wait less as it goes', () => {
  it.each([0, 1, 2, 3, 4, 5])('maxRetries %i: that many retries, then the error', async (maxRetries) => {
    for (const reply of [failWith(503), 'drop'] as const) {
      const { error, clock, received } = await run(() => reply, 'startTryOn', { maxRetries });
      expect(error).toMatchObject({ attempts: maxRetries + 1 });
      expect(received).toHaveLength(maxRetries + 1);
      expect(clock.sleeps.slice(0, 3)).toEqual(ms(backoffSeconds).slice(0, maxRetries));
      // Past the spec's three steps the wait stays at least 4 s.
      for (const [i, wait] of clock.sleeps.entries()) expect(wait).toBeGreaterThanOrEqual(clock.sleeps[i - 1] ?? 0);
      await api?.close();
      api = undefined;
    }
  });

  it.each([-1, 6, 100, 1.5, Number.POSITIVE_INFINITY])('refuses maxRetries %s at construction', (maxRetries) => {
    expect(() => new TryOnClient({ baseUrl: 'http://127.0.0.1:9/api/v1', apiKey, maxRetries })).toThrow(RangeError);
  });
});

describe('SAME-KEY: new per try-on; the same when retrying', () => {
  it('two try-ons carry two keys, each kept over its own retries', async () => {
    api = await startScriptedApi((_r, n) => (n % 2 === 0 ? failWith(502) : failWith(403)));
    const client = new TryOnClient({ baseUrl: api.base, apiKey, clock: fakeClock({ bound: sleepBound }) });
    await client.startTryOn(input).catch(() => {});
    await client.tryOn(input).catch(() => {});
    const [a, b, c, d] = api.received.map((r) => r.idempotencyKey);
    expect(a).toBe(b);
    expect(c).toBe(d);
    expect(a).not.toBe(c);
    expect(a).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
  });
});
