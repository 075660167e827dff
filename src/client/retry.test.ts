/** Retry as the spec tells clients (Errors rules 2 and 4), with an injected sleep: no wall-clock waits. */
import { describe, expect, it } from 'vitest';
import type { Exchange } from './exchange.ts';
import type { SendOptions } from './http-client.ts';
import { backoffMs, shouldRetry, waitFor, withRetry } from './retry.ts';

const answer = (status: number, headers: Record<string, string> = {}): Exchange => ({
  seq: 0,
  request: { method: 'POST', url: 'https://x/api/v1/tryons', headers: {} },
  response: { status, headers, text: '', json: undefined, bytes: Buffer.alloc(0), truncated: false, durationMs: 1 },
});
const failure = (error: string): Exchange => ({
  seq: 0,
  request: { method: 'POST', url: 'https://x/api/v1/tryons', headers: {} },
  error,
});
const short = (ex: Exchange): string => (ex.response ? String(ex.response.status) : (ex.error ?? '?'));

/** Sends the answers in order; records the options of every attempt and every wait. */
async function retried(answers: Exchange[], maxWaitMs?: number) {
  const sent: SendOptions[] = [];
  const waits: number[] = [];
  const send = withRetry(
    async (o) => {
      sent.push(o);
      return answers[Math.min(sent.length - 1, answers.length - 1)] ?? failure('none');
    },
    { sleep: async (ms) => void waits.push(ms), ...(maxWaitMs !== undefined && { maxWaitMs }) },
  );
  const options: SendOptions = { method: 'POST', path: '/tryons', headers: { 'idempotency-key': 'key-12345678' } };
  const last = await send(options);
  return { last: short(last), attempts: sent.length, waits, sameRequest: sent.every((o) => o === options) };
}

describe('withRetry', () => {
  it.each<[string, Exchange[], { last: string; attempts: number; waits: number[] }]>([
    ['a success: no retry', [answer(200)], { last: '200', attempts: 1, waits: [] }],
    ['400 is not retried ("Do not retry 400 … unchanged")', [answer(400)], { last: '400', attempts: 1, waits: [] }],
    ['422 is not retried', [answer(422)], { last: '422', attempts: 1, waits: [] }],
    [
      '429 waits Retry-After ("when Retry-After is present, wait that long")',
      [answer(429, { 'retry-after': '7' }), answer(200)],
      { last: '200', attempts: 2, waits: [7_000] },
    ],
    [
      '500 backs off 1 s, then 2, then 4, and stops',
      [answer(500)],
      { last: '500', attempts: 4, waits: [1_000, 2_000, 4_000] },
    ],
    [
      '502 then 503 then success',
      [answer(502), answer(503), answer(200)],
      { last: '200', attempts: 3, waits: [1_000, 2_000] },
    ],
    [
      'a network timeout is retried',
      [failure('timeout: no complete answer within the time limit'), answer(200)],
      { last: '200', attempts: 2, waits: [1_000] },
    ],
    [
      'a reset connection is retried',
      [failure('ECONNRESET: socket hang up'), answer(200)],
      { last: '200', attempts: 2, waits: [1_000] },
    ],
    [
      'a refused connection is not retried',
      [failure('ECONNREFUSED: connect')],
      { last: 'ECONNREFUSED: connect', attempts: 1, waits: [] },
    ],
    [
      'an HTTP-date Retry-After that has passed is honoured: no wait',
      [answer(503, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), answer(200)],
      { last: '200', attempts: 2, waits: [0] },
    ],
    [
      'a Retry-After in neither form falls back to the backoff',
      [answer(503, { 'retry-after': 'soon' }), answer(200)],
      { last: '200', attempts: 2, waits: [1_000] },
    ],
  ])('%s', async (_name, answers, want) => {
    const got = await retried(answers);
    expect({ last: got.last, attempts: got.attempts, waits: got.waits }).toEqual(want);
    expect(got.sameRequest).toBe(true);
  });

  it('caps a hostile Retry-After at maxWaitMs', async () => {
    expect((await retried([answer(429, { 'retry-after': '86400' }), answer(200)], 5_000)).waits).toEqual([5_000]);
  });

  it('returns an answer the caller keeps as it came, and retries the other transient ones', async () => {
    const sent: number[] = [];
    const answers = [answer(502), answer(500), answer(200)];
    const send = withRetry(async () => answers[sent.push(0) - 1] ?? answer(200), { sleep: async () => {} });
    expect(short(await send({ method: 'POST', path: '/tryons', keep: [500] }))).toBe('500');
    expect(sent.length).toBe(2);
  });

  it('judges a Retry-After longer than giveUpAboveMs as it came, never retrying before it has passed', async () => {
    const waits: number[] = [];
    const send = withRetry(async () => answer(429, { 'retry-after': '30' }), {
      sleep: async (ms) => void waits.push(ms),
      giveUpAboveMs: 15_000,
    });
    expect(short(await send({ method: 'GET', path: '/tryons/x' }))).toBe('429');
    expect(waits).toEqual([]);
  });

  it('leaves network failures alone when told to (network: false)', async () => {
    let attempts = 0;
    const send = withRetry(async () => (attempts++, failure('ECONNRESET: socket hang up')), {
      sleep: async () => {},
      network: false,
    });
    await send({ method: 'GET', path: '/tryons/x' });
    expect(attempts).toBe(1);
  });

  it('shouldRetry and waitFor, row by row', () => {
    expect([429, 500, 502, 503, 504, 401].map((s) => shouldRetry(answer(s)))).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect([0, 1, 2, 3].map((n) => waitFor(answer(500), n))).toEqual([...backoffMs, 4_000]);
    expect(waitFor(answer(429, { 'retry-after': '0' }), 0)).toBe(0);
  });
});
