/**
 * The client against the reference server and its scenarios (issue 14, item 2): retries with the
 * same Idempotency-Key and the spec's backoff, charges read from GET /account, Retry-After, no retry
 * of a refusal, sync falling back to polling. Time is injected: the client's waits are recorded and
 * take a few real milliseconds at most.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TryOnClient, type ClientClock, type TryOnClientOptions, type TryOnInput } from '../../src/sdk/index.ts';
import type { ScenarioName } from '../../src/fixtures/scenarios.ts';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { startHarness, urlBody, type Harness } from '../server/harness.ts';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.ts';

/** A clock whose sleeps are recorded and advance `now` at once (plus `then`, e.g. moving the server's clock). */
function fakeClock(
  then: (ms: number) => Promise<void> = async () => {},
  realMs = 2,
): ClientClock & { readonly sleeps: number[] } {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    async sleep(ms, signal) {
      sleeps.push(ms);
      now += ms;
      await then(ms);
      await new Promise((r) => setTimeout(r, realMs));
      if (signal?.aborted) throw signal.reason;
    },
  };
}

let h: Harness;
let proxy: RecordingProxy;
let account: { accountId: string; apiKey: string };

beforeAll(async () => {
  h = await startHarness({ settings: { syncWaitMs: 300, slowGenerationMs: 1_500, generationLatencyMs: 50 } });
  proxy = await startRecordingProxy(h.base);
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});
beforeEach(async () => {
  account = await h.newAccount();
  proxy.seen.length = 0;
});

const clientWith = (clock: ClientClock, extra: Partial<TryOnClientOptions> = {}) =>
  new TryOnClient({ baseUrl: proxy.base, apiKey: account.apiKey, clock, ...extra });
const creditsOf = async () => (await h.call('GET', '/api/v1/account', { key: account.apiKey })).json.credits as number;
/** A create body whose images come from the harness's fixture host. */
const input = (scenario?: ScenarioName): TryOnInput => ({ ...urlBody(h, scenario), consent: true });
const starts = () => proxy.seen.filter((s) => s.method === 'POST' && s.path.startsWith('/api/v1/tryons'));

describe('retries of a failed start', () => {
  it.each<[ScenarioName, number, number[]]>([
    ['start-failed', 502, [1_000, 2_000, 4_000]],
    ['internal-error', 500, [1_000, 2_000, 4_000]],
    ['unavailable', 503, [1_000, 1_000, 1_000]],
  ])(
    'retries a %s start (%i) three times with the same Idempotency-Key, backing off %j, and charges nothing',
    async (scenario, status, waits) => {
      const clock = fakeClock();
      const before = await creditsOf();
      const error = await clientWith(clock)
        .startTryOn(input(scenario))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'TryOnApiError', status, code: expect.any(String), attempts: 4 });
      expect(starts().map((s) => s.status)).toEqual([status, status, status, status]);
      expect(new Set(starts().map((s) => s.idempotencyKey)).size).toBe(1);
      expect(clock.sleeps).toEqual(waits);
      expect(await creditsOf()).toBe(before);
    },
  );

  it('retries a start whose answer was lost with the same key, and the try-on is charged once', async () => {
    const clock = fakeClock();
    const before = await creditsOf();
    proxy.dropNext('POST', '/api/v1/tryons');
    const client = clientWith(clock);
    const started = await client.startTryOn(input());
    expect(starts()).toHaveLength(2);
    expect(starts()[0]?.idempotencyKey).toBe(starts()[1]?.idempotencyKey);
    expect(clock.sleeps).toEqual([1_000]);
    const final = await client.waitForTryOn(started.id);
    expect(final.status).toBe('success');
    expect(await creditsOf()).toBe(before - 1);
  });

  it('picks a dropped sync call back up with the same key, charged once', async () => {
    const before = await creditsOf();
    proxy.dropNext('POST', '/api/v1/tryons/sync');
    const final = await clientWith(fakeClock()).tryOn(input());
    expect(final.status).toBe('success');
    expect(starts().map((s) => s.path)).toEqual(['/api/v1/tryons/sync', '/api/v1/tryons/sync']);
    expect(starts()[0]?.idempotencyKey).toBe(starts()[1]?.idempotencyKey);
    expect(await creditsOf()).toBe(before - 1);
  });
});

describe('429 and refusals', () => {
  it('waits Retry-After after a 429 and retries with the same key', async () => {
    await h.control('PUT', `/accounts/${account.accountId}/limits`, { startsPerMinute: 1 });
    // The client's wait moves the server's clock by as much, so the window really passes.
    const clock = fakeClock(async (ms) => void (await h.control('POST', '/clock/advance', { seconds: ms / 1000 })));
    const client = clientWith(clock);
    await client.startTryOn(input());
    const second = await client.startTryOn(input());
    expect(second.status).toBe('pending');
    const [, limited, retried] = starts();
    expect(limited?.status).toBe(429);
    expect(retried?.status).toBe(200);
    expect(retried?.idempotencyKey).toBe(limited?.idempotencyKey);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(1_000);
    expect(clock.sleeps[0]! % 1000).toBe(0);
  });

  it.each<[ScenarioName, string]>([
    ['person-rejected', 'PERSON_PHOTO_REJECTED'],
    ['garment-rejected', 'GARMENT_REJECTED'],
  ])('does not retry a 422 (%s) and throws its code', async (scenario, code) => {
    const clock = fakeClock();
    const error = await clientWith(clock)
      .tryOn(input(scenario))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TryOnApiError', status: 422, code, attempts: 1 });
    expect(starts()).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('does not retry a 403 CONSENT_REQUIRED', async () => {
    const error = await clientWith(fakeClock())
      .startTryOn({ ...urlBody(h), consent: false } as unknown as TryOnInput)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, code: 'CONSENT_REQUIRED', attempts: 1 });
    expect(starts()).toHaveLength(1);
  });
});

describe('sync and polling', () => {
  it('ends a sync call that outlasts the wait through polling every 2 s', async () => {
    const clock = fakeClock(async () => {}, 100);
    const final = await clientWith(clock).tryOn(input('slow-generation'));
    expect(final.status).toBe('success');
    expect(starts().map((s) => s.status)).toEqual([202]);
    const polls = proxy.seen.filter((s) => s.method === 'GET');
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((p) => p.path === `/api/v1/tryons/${final.id}`)).toBe(true);
    expect(new Set(clock.sleeps)).toEqual(new Set([2_000]));
  });

  it('gives up polling after giveUpAfterMs, with the try-on id', async () => {
    const client = clientWith(fakeClock(), { giveUpAfterMs: 60_000 });
    const started = await client.startTryOn(input('slow-generation'));
    const error = await client.waitForTryOn(started.id).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TryOnGaveUpError', code: 'CLIENT_GAVE_UP', tryOnId: started.id });
    const polls = proxy.seen.filter((s) => s.method === 'GET');
    expect(polls.length).toBeLessThanOrEqual(30);
  });

  it('stops polling when the AbortSignal fires', async () => {
    const controller = new AbortController();
    const clock = fakeClock(async () => {
      if (clock.sleeps.length === 2) controller.abort(new Error('shopper left'));
    });
    const error = await clientWith(clock)
      .tryOn(input('slow-generation'), { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TryOnAbortedError', code: 'CLIENT_ABORTED' });
  });

  it('reports a failed generation as a 200 with status failed and a message', async () => {
    const final = await clientWith(fakeClock()).tryOn(input('generation-fails'));
    expect(final).toMatchObject({ status: 'failed', resultUrl: null, message: expect.any(String) });
  });
});

describe('uploads, account and configuration', () => {
  it('uploads an image and starts a try-on from its id', async () => {
    const client = clientWith(fakeClock());
    const image = await client.uploadImage({ bytes: await makePersonPhoto(), contentType: 'image/jpeg' });
    expect(image.id).toMatch(/^img_/);
    const final = await client.tryOn({
      personImageId: image.id,
      garmentImageUrl: urlBody(h).garmentImageUrl,
      consent: true,
    });
    expect(final.status).toBe('success');
    expect((await client.getAccount()).credits).toBe(19);
  });

  it('throws INVALID_API_KEY for a wrong key without retrying', async () => {
    const client = new TryOnClient({ baseUrl: proxy.base, apiKey: 'tok_live_nope', clock: fakeClock() });
    await expect(client.getAccount()).rejects.toMatchObject({ status: 401, code: 'INVALID_API_KEY', attempts: 1 });
  });

  it.each<[string, Partial<TryOnClientOptions>]>([
    ['a sync timeout under 70 s', { syncTimeoutMs: 55_000 }],
    ['a poll interval under 2 s', { pollIntervalMs: 100 }],
    ['a poll interval over 3 s', { pollIntervalMs: 10_000 }],
    ['no give-up', { giveUpAfterMs: Number.POSITIVE_INFINITY }],
    ['no request timeout', { requestTimeoutMs: Number.POSITIVE_INFINITY }],
    ['a sync timeout past what a timer holds', { syncTimeoutMs: 2 ** 31 }],
    ['a baseUrl with credentials', { baseUrl: 'http://user:pw@127.0.0.1:9/api/v1' }],
    ['a baseUrl with a query', { baseUrl: 'http://127.0.0.1:9/api/v1?key=x' }],
  ])('refuses %s at construction', (_name, options) => {
    expect(() => clientWith(fakeClock(), options)).toThrow(RangeError);
  });

  it('refuses to run where a browser global is present', () => {
    const g = globalThis as Record<string, unknown>;
    g.window = {};
    try {
      expect(() => clientWith(fakeClock())).toThrow(expect.objectContaining({ code: 'CLIENT_IN_BROWSER' }));
    } finally {
      delete g.window;
    }
  });
});
