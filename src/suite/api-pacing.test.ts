/**
 * The suite's Api paces each request under its account's limit, obeys what an answer says of the limit
 * (a 429's Retry-After, a RateLimit with nothing left, an advertised RateLimit-Policy). A fake clock: every
 * wait is a number the pacer asked for.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/exchange.ts';
import type { Send } from '../client/http-client.ts';
import { Pacer } from '../client/pacer.ts';
import { Api } from './api.ts';
import type { SuiteTarget } from './target.ts';

/** A target whose every start is answered with `headers`, behind a pacer of one start a minute. */
function target(status: number, headers: Record<string, string> = {}) {
  let now = 1_000_000;
  const waits: number[] = [];
  const pacer = new Pacer({
    limits: { starts: 1, polls: 1, uploads: 1 },
    marginMs: 0,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  const send: Send = async (o) =>
    ({
      seq: 1,
      request: { method: o.method, url: o.path, headers: {} },
      response: { status, headers, text: '{}', json: {}, bytes: Buffer.from('{}'), truncated: false, durationMs: 1 },
    }) as Exchange;
  const t = { pacer, send, config: {}, timing: { syncWaitMs: 1_000 } } as unknown as SuiteTarget;
  return { api: new Api(t), waits };
}

const actor = { name: 'primary', key: 'k' };

describe('Api pacing', () => {
  it("waits out a 429's Retry-After before the next start, and the window before the one after", async () => {
    const { api, waits } = target(429, { 'retry-after': '7' });
    await api.start(actor, {});
    await api.start(actor, {});
    expect(waits).toEqual([60_000]);
  });

  it('holds the bucket for the effective window of a RateLimit with nothing left', async () => {
    const { api, waits } = target(200, { ratelimit: '"starts";r=0;t=90' });
    await api.start(actor, {});
    await api.start(actor, {});
    expect(waits).toEqual([90_000]);
  });

  it('paces by the quota the target advertises when the user declared none', async () => {
    const { api, waits } = target(200, { 'ratelimit-policy': '"starts";q=3;w=60' });
    // One a minute by its own limit; three by the target's word: the fourth is the first to wait.
    for (let i = 0; i < 4; i++) await api.start(actor, {});
    expect(waits).toEqual([60_000]);
  });
});
