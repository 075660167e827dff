/**
 * POST /tryons/sync over HTTP (spec: POST /tryons/sync; States and transitions rule 5; openapi.yaml
 * x-point sync-pick-up). The main harness waits 1 s and makes `slow-generation` take 2.5 s, so a
 * slow try-on outlasts the wait and a normal one (50 ms) finishes well within it.
 */
import { Agent, request as undiciRequest } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeGarmentImage, makePersonPhoto } from '../../src/fixtures/images.ts';
import { checkAgainstSpec, newKey, startHarness, upload, urlBody, type Exchange, type Harness } from './harness.ts';

const syncWaitMs = 1_000;
const slowGenerationMs = 2_500;

let h: Harness;
/** Harnesses a single test starts for special settings; closed and checked with the main one. */
const extra: Harness[] = [];
beforeAll(async () => {
  h = await startHarness({ settings: { syncWaitMs, slowGenerationMs } });
});
afterAll(async () => {
  await Promise.all([h?.close(), ...extra.map((x) => x.close())]);
});
afterEach(() => {
  expect(h.violations).toEqual([]);
  for (const x of extra) expect(x.violations).toEqual([]);
});

const sync = (key: string, json: unknown, idemKey: string = newKey(), signal?: AbortSignal) =>
  h.call('POST', '/api/v1/tryons/sync', {
    key,
    json,
    headers: { 'idempotency-key': idemKey },
    ...(signal && { signal }),
  });
const credits = async (key: string): Promise<number> =>
  (await h.call('GET', '/api/v1/account', { key })).json.credits as number;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (real time) until `predicate` holds, or fails after `timeoutMs`. */
async function until(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Polls `pollUrl` every 250 ms, far below 60 polls a minute. */
async function pollFinal(key: string, pollUrl: string, timeoutMs = 10_000): Promise<Exchange> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await h.call('GET', pollUrl, { key });
    if (res.status !== 200 || res.json.status !== 'pending' || Date.now() > deadline) return res;
    await sleep(250);
  }
}

describe('POST /tryons/sync', () => {
  it('answers 200 success with a resultUrl when the try-on finishes within the wait', async () => {
    const { apiKey } = await h.newAccount();
    const t0 = Date.now();
    const res = await sync(apiKey, urlBody(h));
    const elapsed = Date.now() - t0;
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toEqual({
      id: expect.any(String),
      status: 'success',
      resultUrl: expect.stringMatching(/^https?:\/\/[^/]+\/i\/[^/?#]+$/),
    });
    // It answers as soon as the try-on finishes, not at the end of the wait.
    expect(elapsed).toBeLessThan(syncWaitMs);
    const image = await h.call('GET', new URL(res.json.resultUrl).pathname);
    expect(image.status).toBe(200);
    expect(String(image.headers['content-type'])).toMatch(/^image\/(jpeg|png)/);
    expect((await h.call('GET', `/api/v1/tryons/${res.json.id}`, { key: apiKey })).json).toEqual(res.json);
    expect(await credits(apiKey)).toBe(19);
  });

  it('answers 200 failed with a message, and refunds, for generation-fails', async () => {
    const { apiKey } = await h.newAccount();
    const res = await sync(apiKey, urlBody(h, 'generation-fails'));
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toEqual({
      id: expect.any(String),
      status: 'failed',
      resultUrl: null,
      message: expect.any(String),
    });
    expect(res.json.message.length).toBeGreaterThan(0);
    expect(await credits(apiKey)).toBe(20);
  });

  it('answers 202 pending with pollUrl after about the sync wait, and the try-on later reaches success', async () => {
    const { apiKey } = await h.newAccount();
    const t0 = Date.now();
    const res = await sync(apiKey, urlBody(h, 'slow-generation'));
    const elapsed = Date.now() - t0;
    expect(res.status, JSON.stringify(res.json)).toBe(202);
    expect(res.json).toEqual({ id: expect.any(String), status: 'pending', pollUrl: `/api/v1/tryons/${res.json.id}` });
    expect(elapsed).toBeGreaterThanOrEqual(syncWaitMs - 50);
    expect(elapsed).toBeLessThan(slowGenerationMs);
    expect(await credits(apiKey)).toBe(19);

    const final = await pollFinal(apiKey, res.json.pollUrl);
    expect(final.status).toBe(200);
    expect(final.json).toEqual({ id: res.json.id, status: 'success', resultUrl: expect.any(String) });
    expect(await credits(apiKey)).toBe(19);
  });

  it('gives a pollUrl equal to /api/v1/tryons/<id> that reads the same try-on', async () => {
    const { apiKey } = await h.newAccount();
    const res = await sync(apiKey, urlBody(h, 'slow-generation'));
    expect(res.status).toBe(202);
    expect(res.json.pollUrl).toBe(`/api/v1/tryons/${res.json.id}`);
    const read = await h.call('GET', res.json.pollUrl, { key: apiKey });
    expect(read.status).toBe(200);
    expect(read.json.id).toBe(res.json.id);
    expect(['pending', 'success']).toContain(read.json.status);
  });

  it('picks the try-on back up for a repeat with the same key while the first request is still held', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const body = urlBody(h, 'slow-generation');
    const baseline = h.server.context.waiters.size;
    const first = sync(apiKey, body, key);
    // The first request has created its try-on and is now held open.
    await until(() => h.server.context.waiters.size > baseline, 'the first request to be held');
    const second = sync(apiKey, body, key);
    await until(() => h.server.context.waiters.size > baseline + 1, 'the repeat to be held as well');
    const [a, b] = await Promise.all([first, second]);
    expect(a.status, JSON.stringify(a.json)).toBe(202);
    expect(b.status, JSON.stringify(b.json)).toBe(202);
    expect(b.json.id).toBe(a.json.id);
    expect(b.json).toEqual(a.json);
    expect(await credits(apiKey)).toBe(19);

    // Once finished, a repeat answers 200 with the final state, still without a charge.
    expect((await pollFinal(apiKey, a.json.pollUrl)).json.status).toBe('success');
    const third = await sync(apiKey, body, key);
    expect(third.status).toBe(200);
    expect(third.json).toMatchObject({ id: a.json.id, status: 'success' });
    expect(await credits(apiKey)).toBe(19);
  });

  it('keeps the try-on running when the client disconnects, and charges it once', async () => {
    const { apiKey } = await h.newAccount();
    const key = newKey();
    const body = urlBody(h, 'slow-generation');
    const baseline = h.server.context.waiters.size;
    const abort = new AbortController();
    const held = sync(apiKey, body, key, abort.signal);
    const outcome = held.then(
      () => 'answered',
      (error: unknown) => (error as Error).name,
    );
    await until(() => h.server.context.waiters.size > baseline, 'the request to be held');
    abort.abort();
    expect(await outcome).toBe('AbortError');
    // The server lets go of the waiter when the connection drops.
    await until(() => h.server.context.waiters.size === baseline, 'the held request to be released');

    // The same key finds the try-on (no new one), which still reaches success.
    const found = await h.call('POST', '/api/v1/tryons', {
      key: apiKey,
      json: body,
      headers: { 'idempotency-key': key },
    });
    expect(found.status).toBe(200);
    expect(found.headers['idempotent-replayed']).toBe('true');
    expect(await credits(apiKey)).toBe(19);
    const final = await pollFinal(apiKey, found.json.pollUrl);
    expect(final.json.status).toBe('success');
    expect(await credits(apiKey)).toBe(19);
  });

  it('does not hold a request whose client left while its try-on was being started, and still charges it once', async () => {
    // A fetch timeout long enough for the slow photo below, however loaded the machine.
    const slow = await startHarness({
      settings: { syncWaitMs: 30_000, slowGenerationMs: 60_000, fetchTimeoutMs: 20_000 },
    });
    extra.push(slow);
    const { accountId, apiKey } = await slow.newAccount();
    // The repeats below ask until the start is over: room for them in the starts limit.
    expect((await slow.control('PUT', `/accounts/${accountId}/limits`, { startsPerMinute: 1_000 })).status).toBe(200);
    const key = newKey();
    // The person photo arrives in 2 parts a second apart: the client leaves while it is fetched.
    const path = '/drip?file=person-slow-generation.jpg&chunks=2&interval=1000';
    const body = urlBody(slow, 'slow-generation', { personImageUrl: slow.fixtures.url(path) });
    const abort = new AbortController();
    const held = slow
      .call('POST', '/api/v1/tryons/sync', {
        key: apiKey,
        json: body,
        headers: { 'idempotency-key': key },
        signal: abort.signal,
      })
      .then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      );
    await until(
      () => slow.fixtures.requests.some((r) => r.path === path),
      'the start to fetch the person photo',
      10_000,
    );
    abort.abort();
    expect(await held).toBe('AbortError');

    // Once the start has bound the key (409 while it runs), the try-on exists and was never held.
    let found: Exchange | undefined;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      found = await slow.call('POST', '/api/v1/tryons', {
        key: apiKey,
        json: body,
        headers: { 'idempotency-key': key },
      });
      if (found.status !== 409) break;
      await sleep(100);
    }
    expect(found?.status, JSON.stringify(found?.json)).toBe(200);
    expect(found?.headers['idempotent-replayed']).toBe('true');
    expect(slow.server.context.waiters.size).toBe(0);
    expect((await slow.call('GET', '/api/v1/account', { key: apiKey })).json.credits).toBe(19);
  });

  it('answers 1,000 concurrent held sync requests with 202 in bounded time and releases every waiter', async () => {
    // Generation takes a minute here, so every request must end its wait with a 202. One account holds
    // them all: its cap on requests in flight is raised with its other limits.
    const settings = { syncWaitMs: 1_500, slowGenerationMs: 60_000, maxInFlightPerAccount: 2_000 };
    const big = await startHarness({ settings });
    extra.push(big);
    const n = 1_000;
    const { accountId, apiKey } = await big.newAccount();
    expect((await big.control('PUT', `/accounts/${accountId}/limits`, { startsPerMinute: 5_000 })).status).toBe(200);
    expect((await big.control('PUT', `/accounts/${accountId}/credits`, { credits: n + 5 })).status).toBe(200);
    // Uploaded ids keep the 1,000 starts cheap (no image fetch per start).
    const person = await upload(
      big,
      apiKey,
      await makePersonPhoto({ width: 48, height: 64, scenario: 'slow-generation' }),
    );
    const garment = await upload(big, apiKey, await makeGarmentImage({ width: 48, height: 48, format: 'png' }));
    expect(person.status).toBe(200);
    expect(garment.status).toBe(200);
    const body = JSON.stringify({ personImageId: person.json.id, garmentImageId: garment.json.id, consent: true });

    const agent = new Agent({ connections: n + 100, pipelining: 0 });
    const send = async (idemKey: string): Promise<Exchange> => {
      const res = await undiciRequest(`${big.base}/api/v1/tryons/sync`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': idemKey },
        body,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      const buf = Buffer.from(await res.body.arrayBuffer());
      const isJson = String(res.headers['content-type'] ?? '').startsWith('application/json');
      const ex: Exchange = {
        status: res.statusCode,
        headers: res.headers,
        body: buf,
        json: isJson && buf.length ? JSON.parse(buf.toString()) : undefined,
      };
      big.violations.push(...checkAgainstSpec('POST', '/api/v1/tryons/sync', ex));
      return ex;
    };

    let peak = 0;
    let done = false;
    const sampler = (async () => {
      while (!done) {
        peak = Math.max(peak, big.server.context.waiters.size);
        await sleep(10);
      }
    })();
    const t0 = Date.now();
    try {
      const answers = await Promise.all(Array.from({ length: n }, () => send(newKey())));
      const elapsed = Date.now() - t0;
      done = true;
      await sampler;

      const byStatus = new Map<number, number>();
      for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
      expect(Object.fromEntries(byStatus)).toEqual({ 202: n });
      expect(new Set(answers.map((a) => a.json.id)).size).toBe(n);
      for (const a of answers)
        expect(a.json).toEqual({ id: a.json.id, status: 'pending', pollUrl: `/api/v1/tryons/${a.json.id}` });
      expect(elapsed).toBeLessThan(20_000);
      // The requests really were held together, and none is left behind.
      expect(peak).toBeGreaterThan(n / 4);
      expect(big.server.context.waiters.size).toBe(0);
      expect((await big.call('GET', '/api/v1/account', { key: apiKey })).json.credits).toBe(5);
      console.info(`1,000 held sync requests: all 202 in ${elapsed} ms; peak waiters ${peak}`);
    } finally {
      done = true;
      await agent.close();
    }
  }, 45_000);
});
