/**
 * The caller's AbortSignal is the caller's object: a server may pass one signal (a shopper's session,
 * its own shutdown) to every call. The client listens to it while a call runs and lets go when the
 * call ends, however it ends; a listener left behind per call would grow with every call (and Node
 * warns of a leak past ten), so nothing may stay on the signal after any call.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { TryOnClient } from '../../src/sdk/index.ts';
import { failWith, startScriptedApi, type Received, type Reply, type ScriptedApi } from './scripted-api.ts';
import { fakeClock } from './fake-clock.ts';

const apiKey = 'vto_live_SignalKey_0123456789';
const input = {
  personImageUrl: 'https://img.test/p.jpg',
  garmentImageUrl: 'https://img.test/g.jpg',
  consent: true,
} as const;
const pending = { id: 'tr_g1', status: 'pending', pollUrl: '/api/v1/tryons/tr_g1' };
const done = { id: 'tr_g1', status: 'success', resultUrl: 'https://x.test/i/g1.jpg' };
const uploaded = { id: 'img_g1', expiresAt: '2030-01-01T00:00:00Z' };

let api: ScriptedApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** Abort listeners on `signal` right now. */
const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

/** An API that answers each endpoint as a healthy server would: a sync 202 polled twice before success. */
function healthy(r: Received, n: number): Reply {
  if (r.path === '/api/v1/tryons/sync') return { status: 202, body: pending };
  if (r.path === '/api/v1/tryons') return { status: 200, body: pending };
  if (r.path === '/api/v1/images') return { status: 200, body: uploaded };
  if (r.path === '/api/v1/account') return { status: 200, body: { credits: 5 } };
  return { status: 200, body: n % 3 === 0 ? done : pending };
}

describe("the caller's AbortSignal after a call", () => {
  it('one signal shared by every kind of call that succeeds keeps no listener', async () => {
    api = await startScriptedApi(healthy);
    const client = new TryOnClient({ baseUrl: api.base, apiKey, clock: fakeClock({ bound: 40 }) });
    const { signal } = new AbortController();
    const calls = [
      () => client.startTryOn(input, { signal }),
      () => client.tryOn(input, { signal }),
      () => client.getTryOn('tr_g1', { signal }),
      () => client.waitForTryOn('tr_g1', { signal }),
      () => client.uploadImage({ bytes: new Uint8Array([1, 2, 3]), contentType: 'image/png' }, { signal }),
      () => client.getAccount({ signal }),
    ];
    for (const [i, call] of calls.entries()) {
      await call();
      expect(listeners(signal), `after call ${i}`).toBe(0);
    }
    expect(api.received.length).toBeGreaterThan(calls.length);
  });

  it.each<[string, (r: Received, n: number) => Reply]>([
    ['retried 503s, then the error', () => failWith(503)],
    ['a refusal that is not retried', () => failWith(402)],
    ['a retry that succeeds', (_r, n) => (n === 0 ? failWith(429, '1') : { status: 200, body: { credits: 2 } })],
    ['an answer without the envelope', () => ({ status: 500, raw: 'oops' })],
    ['a dropped connection on every attempt', () => 'drop'],
  ])('%s: no listener left', async (_name, script) => {
    api = await startScriptedApi(script);
    const client = new TryOnClient({ baseUrl: api.base, apiKey, clock: fakeClock({ bound: 40 }) });
    const { signal } = new AbortController();
    await client.getAccount({ signal }).catch(() => undefined);
    expect(api.received.length).toBeGreaterThan(0);
    expect(listeners(signal)).toBe(0);
  });

  it('listens while the answer is awaited, so that an abort still ends the call', async () => {
    api = await startScriptedApi(() => 'hold');
    const client = new TryOnClient({ baseUrl: api.base, apiKey, clock: fakeClock({ bound: 40 }) });
    const controller = new AbortController();
    const call = client.getAccount({ signal: controller.signal }).catch((e: unknown) => e);
    while (api.received.length === 0) await new Promise((r) => setImmediate(r));
    expect(listeners(controller.signal)).toBeGreaterThan(0);
    controller.abort(new Error('shopper left'));
    expect(await call).toMatchObject({ name: 'TryOnAbortedError', code: 'CLIENT_ABORTED' });
    expect(listeners(controller.signal)).toBe(0);
  });
});
