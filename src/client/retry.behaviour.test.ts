/**
 * withRetry beyond the common path (spec, Errors rules 2 and 4): the caller's limits on a wait, the
 * option that leaves network failures alone, what counts as a network timeout, the attempt numbers it
 * reports, and what counts as a Retry-After in seconds. Waits are injected or on fake timers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Exchange } from './exchange.ts';
import type { SendOptions } from './http-client.ts';
import { shouldRetry, waitFor, withRetry, type RetryOptions } from './retry.ts';

const request = { method: 'POST', url: 'https://x/api/v1/tryons', headers: {} };
const answer = (status: number, headers: Record<string, string> = {}): Exchange => ({
  seq: 0,
  request,
  response: { status, headers, text: '', json: undefined, bytes: Buffer.alloc(0), truncated: false, durationMs: 1 },
});
const failure = (error: string): Exchange => ({ seq: 0, request, error });
const options: SendOptions = { method: 'POST', path: '/tryons' };

/** Runs withRetry over `answers` (the last repeats) and returns the statuses sent back and the waits. */
async function run(answers: Exchange[], o: RetryOptions = {}) {
  let attempts = 0;
  const waits: number[] = [];
  const retries: Array<[number, number]> = [];
  const send = withRetry(async () => answers[Math.min(attempts++, answers.length - 1)]!, {
    sleep: async (ms) => void waits.push(ms),
    onRetry: (attempt, wait) => retries.push([attempt, wait]),
    ...o,
  });
  const last = await send(options);
  return { last: last.response?.status ?? last.error, attempts, waits, retries };
}

describe('withRetry (limits on a wait, network failures)', () => {
  it('returns an answer as it came when its Retry-After is longer than giveUpAboveMs', async () => {
    const r = await run([answer(429, { 'retry-after': '61' }), answer(200)], { giveUpAboveMs: 60_000 });
    expect(r).toMatchObject({ last: 429, attempts: 1, waits: [] });
  });

  it('still waits a Retry-After of exactly giveUpAboveMs ("longer than this is not waited")', async () => {
    const r = await run([answer(429, { 'retry-after': '60' }), answer(200)], { giveUpAboveMs: 60_000 });
    expect(r).toMatchObject({ last: 200, attempts: 2, waits: [60_000] });
  });

  it('still retries an HTTP answer when network failures are not to be retried', async () => {
    const r = await run([answer(503), answer(200)], { network: false });
    expect(r).toMatchObject({ last: 200, attempts: 2, waits: [1_000] });
  });

  it('does not retry a network timeout when network failures are not to be retried', async () => {
    const r = await run([failure('timeout: no complete answer within the time limit'), answer(200)], {
      network: false,
    });
    expect(r).toMatchObject({ last: 'timeout: no complete answer within the time limit', attempts: 1 });
  });

  it('numbers the retries it reports from 1, with the wait of each', async () => {
    const r = await run([answer(500), answer(502), answer(200)]);
    expect(r.retries).toEqual([
      [1, 1_000],
      [2, 2_000],
    ]);
  });
});

describe('what withRetry counts as retryable', () => {
  it.each<[string, Exchange, boolean]>([
    ['a timeout', failure('timeout: no complete answer within the time limit'), true],
    ['a reset', failure('ECONNRESET: read ECONNRESET'), true],
    ['a closed socket', failure('UND_ERR_SOCKET: other side closed'), true],
    ['a refusal whose message mentions a timeout', failure('ECONNREFUSED: connect refused (connect timeout)'), false],
    ['a failure with no text', { seq: 0, request }, false],
  ])('%s: %s', (_name, exchange, retried) => {
    expect(shouldRetry(exchange)).toBe(retried);
  });

  it.each<[string, string]>([
    ['a fraction of a second', '1.5'],
    ['seconds with a unit', '3s'],
    ['a negative number', '-3'],
  ])('takes a Retry-After that is not whole seconds (%s) as absent and backs off instead', (_name, value) => {
    expect(waitFor(answer(429, { 'retry-after': value }), 0)).toBe(1_000);
  });

  it('backs off 4 s on every attempt past the third', () => {
    expect([3, 4, 10].map((attempt) => waitFor(answer(503), attempt))).toEqual([4_000, 4_000, 4_000]);
  });
});

describe('withRetry without an injected sleep', () => {
  afterEach(() => void vi.useRealTimers());

  it('waits on a real timer for the backoff before the retry', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const send = withRetry(async () => (attempts++ === 0 ? answer(503) : answer(200)));
    const done = send(options);
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await done).response?.status).toBe(200);
    expect(attempts).toBe(2);
  });
});
