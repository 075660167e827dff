/**
 * "Retry with the same Idempotency-Key on … network timeouts" (Errors rule 2) for every way a
 * connection can fail below HTTP: an undici dispatcher whose connector fails with a chosen error
 * stands in for the network, so each failure comes in milliseconds, and the waits go through an
 * injected clock.
 */
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { TryOnClient, type ClientClock } from '../../src/sdk/index.ts';
import { backoffSeconds } from './spec-client-rules.ts';

/** A dispatcher whose every connection fails with `code` (none: an error without a code). */
function failingNetwork(code: string | undefined, seen: { connects: number }): Agent {
  return new Agent({
    connect: (_options, callback) => {
      seen.connects += 1;
      const error = Object.assign(new Error(`scripted failure`), code === undefined ? {} : { code });
      callback(error, null);
    },
  });
}

function fakeClock(): ClientClock & { readonly sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => 0,
    async sleep(ms) {
      if (sleeps.length >= 40) throw new Error('the client kept retrying');
      sleeps.push(ms);
    },
  };
}

async function getAccountOver(code: string | undefined) {
  const seen = { connects: 0 };
  const clock = fakeClock();
  const client = new TryOnClient({
    baseUrl: 'http://127.0.0.1:9/api/v1',
    apiKey: 'vto_live_TransportKey_0123456789',
    dispatcher: failingNetwork(code, seen),
    clock,
  });
  const error = (await client.getAccount().catch((e: unknown) => e)) as Error & Record<string, unknown>;
  return { error, seen, clock };
}

describe('a connection that fails below HTTP is retried 1, 2, 4 s apart, then typed', () => {
  it.each(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'])(
    '%s is a timeout: CLIENT_TIMEOUT after 4 attempts',
    async (code) => {
      const { error, seen, clock } = await getAccountOver(code);
      expect(error).toMatchObject({ name: 'TryOnNetworkError', code: 'CLIENT_TIMEOUT', attempts: 4 });
      expect(error.message).toBe(`timed out: ${code} scripted failure`);
      expect(seen.connects).toBe(4);
      expect(clock.sleeps).toEqual(backoffSeconds.map((s) => s * 1000));
    },
  );

  it.each(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND'])(
    '%s is a network failure: CLIENT_NETWORK after 4 attempts',
    async (code) => {
      const { error, seen, clock } = await getAccountOver(code);
      expect(error).toMatchObject({ name: 'TryOnNetworkError', code: 'CLIENT_NETWORK', attempts: 4 });
      expect(error.message).toBe(`connection failed: ${code} scripted failure`);
      expect(error.cause).toMatchObject({ code });
      expect(seen.connects).toBe(4);
      expect(clock.sleeps).toEqual(backoffSeconds.map((s) => s * 1000));
    },
  );

  it('an error with neither code nor message is described by its name', async () => {
    const dispatcher = new Agent({ connect: (_o, callback) => callback(new Error(''), null) });
    const client = new TryOnClient({
      baseUrl: 'http://127.0.0.1:9/api/v1',
      apiKey: 'vto_live_TransportKey_0123456789',
      dispatcher,
      clock: fakeClock(),
      maxRetries: 0,
    });
    const error = await client.getAccount().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CLIENT_NETWORK', message: 'connection failed: Error' });
  });

  it('an error without a code is a network failure, described by its message', async () => {
    const { error } = await getAccountOver(undefined);
    expect(error).toMatchObject({ code: 'CLIENT_NETWORK', attempts: 4 });
    expect(error.message).toBe('connection failed: scripted failure');
  });
});
