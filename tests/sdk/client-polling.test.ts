/**
 * The sync call's 202 and polling: "Clients must handle both 200 and 202 and, on 202, poll
 * `pollUrl` every 2-3 seconds", and "give up after a few minutes" (GET /tryons/{id}), against a
 * scripted API on loopback with an injected clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TryOnClient, type TryOnClientOptions } from '../../src/sdk/index.ts';
import { startScriptedApi, type ScriptedApi } from './scripted-api.ts';
import { fakeClock } from './fake-clock.ts';
import { pollSeconds } from './spec-client-rules.ts';

const apiKey = 'vto_live_PollingKey_0123456789';
const input = {
  personImageUrl: 'https://img.test/p.jpg',
  garmentImageUrl: 'https://img.test/g.jpg',
  consent: true,
} as const;
const pending = { id: 'tr_p1', status: 'pending', pollUrl: '/api/v1/tryons/tr_p1' };
const done = { id: 'tr_p1', status: 'success', resultUrl: 'https://x.test/i/p1.jpg' };

let api: ScriptedApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
const base = 'http://127.0.0.1:9/api/v1';
const construct = (extra: Partial<TryOnClientOptions>) => new TryOnClient({ baseUrl: base, apiKey, ...extra });

describe('on 202, poll pollUrl every 2-3 seconds', () => {
  it.each([pollSeconds.min * 1000, 2_500, pollSeconds.max * 1000])(
    'pollIntervalMs %i: a 202, then three pending reads, then success',
    async (pollIntervalMs) => {
      api = await startScriptedApi((r, n) =>
        r.method === 'POST' ? { status: 202, body: pending } : { status: 200, body: n < 4 ? pending : done },
      );
      const clock = fakeClock({ bound: 500 });
      const client = new TryOnClient({ baseUrl: api.base, apiKey, clock, pollIntervalMs });
      expect(await client.tryOn(input)).toMatchObject(done);
      expect(api.received.map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /api/v1/tryons/sync',
        ...Array(4).fill('GET /api/v1/tryons/tr_p1'),
      ]);
      // "poll `pollUrl` every 2-3 seconds"
      expect(clock.sleeps).toEqual([pollIntervalMs, pollIntervalMs, pollIntervalMs, pollIntervalMs]);
    },
  );

  it.each([0, 1_000, 1_999, 3_001, 10_000])('refuses pollIntervalMs %i at construction', (pollIntervalMs) => {
    expect(() => construct({ pollIntervalMs })).toThrow(RangeError);
  });
});

describe('give up after a few minutes', () => {
  it('stops polling a try-on pending for ever at giveUpAfterMs, with its id', async () => {
    api = await startScriptedApi((r) => ({ status: r.method === 'POST' ? 202 : 200, body: pending }));
    const clock = fakeClock({ bound: 500 });
    const client = new TryOnClient({ baseUrl: api.base, apiKey, clock, giveUpAfterMs: 120_000 });
    const error = await client.tryOn(input).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TryOnGaveUpError', code: 'CLIENT_GAVE_UP', tryOnId: 'tr_p1' });
    const waited = clock.sleeps.reduce((a, b) => a + b, 0);
    expect(waited).toBeLessThanOrEqual(120_000);
    expect(waited).toBeGreaterThan(120_000 - 2 * 2_000);
  });

  it.each([0, 59_999, 15 * 60_000 + 1, Number.POSITIVE_INFINITY])('refuses giveUpAfterMs %i', (giveUpAfterMs) => {
    expect(() => construct({ giveUpAfterMs })).toThrow(RangeError);
  });

  it.each([60_000, 5 * 60_000, 15 * 60_000])('accepts giveUpAfterMs %i', (giveUpAfterMs) => {
    expect(construct({ giveUpAfterMs })).toBeInstanceOf(TryOnClient);
  });
});
