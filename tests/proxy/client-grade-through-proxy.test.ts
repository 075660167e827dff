/**
 * The two kinds of client, through the proxy in front of a real `serve --grade-clients`: the careless
 * client of the grading tests gets each of its bad behaviours flagged with its rule by the proxy's
 * TrafficGrader, with the same verdicts as the sandbox's own grader for the same traffic, and the typed
 * client (`tryon-conformance/client`) doing a realistic session gets no flag from either.
 *
 * The test moves the sandbox's clock instead of waiting (a minute's rate-limit window, ten minutes of
 * polling); the proxy stamps exchanges on the wall clock, so its exchanges are read on the sandbox's
 * clock (each advance the test made, from when it made it) before the grader takes them.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrafficGrader } from '../../src/grade/traffic-grader.ts';
import type { ClientGrade } from '../../src/grade/grade.ts';
import type { ScenarioName } from '../../src/fixtures/scenarios.ts';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { createProxy, type ReverseProxy } from '../../src/proxy/proxy-app.ts';
import { TryOnClient, type ClientClock, type TryOnInput } from '../../src/sdk/index.ts';
import { accountOf, type TrafficExchange } from '../../src/traffic/traffic-exchange.ts';
import { startHarness, urlBody, type Harness } from '../server/harness.ts';

let h: Harness;
let proxy: ReverseProxy;
let proxyBase = '';
/** How far the test has moved the sandbox's clock, from which wall-clock instant: oldest first. */
const shifts: Array<{ readonly from: number; readonly by: number }> = [{ from: 0, by: 0 }];
const onSandboxClock = (wall: number): number => wall + (shifts.findLast((s) => s.from <= wall)?.by ?? 0);
const grader = new TrafficGrader({ clock: { now: () => onSandboxClock(Date.now()) } });

beforeAll(async () => {
  h = await startHarness({
    gradeClients: true,
    settings: { syncWaitMs: 300, slowGenerationMs: 3_000, generationLatencyMs: 50 },
  });
  const observe = (te: TrafficExchange) =>
    grader.observe({ ...te, startedAt: onSandboxClock(te.startedAt), endedAt: onSandboxClock(te.endedAt) });
  proxy = await createProxy({ upstream: h.base, token: 'proxy-token', observers: [{ observe }] });
  proxyBase = await proxy.listen('127.0.0.1', 0);
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

const input = (scenario?: ScenarioName): TryOnInput => ({ ...urlBody(h, scenario), consent: true });

/** Moves the sandbox's clock by `ms`, and from now on reads the proxy's exchanges that much later. */
async function advance(ms: number): Promise<void> {
  await h.control('POST', '/clock/advance', { seconds: ms / 1000 });
  shifts.push({ from: Date.now(), by: (shifts.at(-1)?.by ?? 0) + ms });
}

/** The client's waits move the sandbox's clock by as much, and take ms/divisor of real time. */
function sandboxClock(divisor: number): ClientClock {
  let now = 0;
  return {
    now: () => now,
    async sleep(ms, signal) {
      now += ms;
      await advance(ms);
      await new Promise((r) => setTimeout(r, Math.max(1, ms / divisor)));
      if (signal?.aborted) throw signal.reason;
    },
  };
}

const verdicts = (g: ClientGrade): Record<string, string> =>
  Object.fromEntries((g.callers[0]?.rules ?? []).map((r) => [r.id, r.verdict]));

/** The sandbox's own grade of an account, and the proxy's grade of the same key, once the proxy has seen all. */
async function bothGrades(accountId: string, apiKey: string): Promise<{ sandbox: ClientGrade; proxy: ClientGrade }> {
  const caller = accountOf(`Bearer ${apiKey}`);
  const res = await h.control('GET', `/client-grade?format=json&caller=${accountId}`);
  expect(res.status).toBe(200);
  const sandbox = JSON.parse(res.body.toString()) as ClientGrade;
  await expect.poll(() => grader.grade(caller).callers[0]?.requests).toBe(sandbox.callers[0]?.requests);
  const graded = grader.grade(caller);
  expect(graded.callers.map((c) => c.caller)).toEqual([caller]);
  return { sandbox, proxy: graded };
}

/** A careless client of one account: raw requests with its key through the proxy. */
async function carelessClient() {
  const account = await h.newAccount();
  let n = 0;
  const send = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    timeoutMs?: number,
  ) => {
    const res = await request(`${proxyBase}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? null : JSON.stringify(body),
      ...(timeoutMs !== undefined && { signal: AbortSignal.timeout(timeoutMs) }),
    });
    return { status: res.statusCode, json: (await res.body.json()) as { id: string; status: string } };
  };
  const freshKey = () => `careless-${Date.now()}-${++n}`;
  return { account, send, freshKey };
}

const occasions = (g: ClientGrade) => g.callers[0]?.rules.map((r) => [r.id, r.occasions, r.failures.length]);

describe('through the proxy, a careless client', () => {
  it('gets each bad behaviour the upstream answered flagged with its rule, as the sandbox flags it', async () => {
    const { account, send, freshKey } = await carelessClient();
    // A new key on every retry of a 502, and no backoff.
    for (let i = 0; i < 4; i++) await send('POST', '/tryons', input('start-failed'), { 'idempotency-key': freshKey() });
    // A 422 sent again unchanged.
    const rejectedKey = freshKey();
    for (let i = 0; i < 2; i++)
      await send('POST', '/tryons', input('person-rejected'), { 'idempotency-key': rejectedKey });
    // A 429 retried at once, before Retry-After.
    await h.control('PUT', `/accounts/${account.accountId}/limits`, { startsPerMinute: 1 });
    await send('POST', '/tryons', input(), { 'idempotency-key': freshKey() });
    const limitedKey = freshKey();
    for (let i = 0; i < 2; i++) {
      const limited = await send('POST', '/tryons', input('slow-generation'), { 'idempotency-key': limitedKey });
      expect(limited.status).toBe(429);
    }
    await advance(61_000);
    const slow = await send('POST', '/tryons', input('slow-generation'), { 'idempotency-key': limitedKey });
    await h.control('PUT', `/accounts/${account.accountId}/limits`, { startsPerMinute: 1_000 });
    // Polling every 100 ms, and still polling 11 minutes later.
    for (let i = 0; i < 4; i++) {
      await send('GET', `/tryons/${slow.json.id}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await advance(11 * 60_000);
    expect((await send('GET', `/tryons/${slow.json.id}`)).json.status).toBe('pending');
    // A browser's Origin header.
    await send('GET', '/account', undefined, { origin: 'https://shop.example' });

    const { sandbox, proxy: graded } = await bothGrades(account.accountId, account.apiKey);
    expect(verdicts(graded)).toEqual({
      'ERR-CLIENT-RETRY-SAME-KEY': 'fail',
      'ERR-CLIENT-NO-UNCHANGED-RETRY': 'fail',
      'ERR-CLIENT-BACKOFF-1-2-4': 'fail',
      'ERR-CLIENT-HONOURS-RETRY-AFTER': 'fail',
      'GET-POLL-EVERY-2-3-SECONDS': 'fail',
      'GET-POLL-GIVE-UP-AFTER-MINUTES': 'fail',
      'SYNC-CLIENT-TIMEOUT-70-SECONDS': 'not-exercised',
      'SYNC-CLIENT-HANDLES-200-AND-202': 'not-exercised',
      'AUTH-KEY-SERVER-SIDE-ONLY': 'fail',
    });
    expect(verdicts(graded)).toEqual(verdicts(sandbox));
    expect(occasions(graded)).toEqual(occasions(sandbox));
  });

  // The proxy hands its observers an exchange the client gave up on before any answer (a sync call
  // dropped at 100 ms), unanswered and dropped, as the sandbox's hook records it.
  it('gets a sync call it drops before the answer flagged, as the sandbox flags it', async () => {
    const { account, send, freshKey } = await carelessClient();
    await expect(
      send('POST', '/tryons/sync', input('slow-generation'), { 'idempotency-key': freshKey() }, 100),
    ).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 400));
    const { sandbox, proxy: graded } = await bothGrades(account.accountId, account.apiKey);
    expect(verdicts(sandbox)['SYNC-CLIENT-TIMEOUT-70-SECONDS']).toBe('fail');
    expect(verdicts(graded)).toEqual(verdicts(sandbox));
  });
});

describe('through the proxy, the typed client', () => {
  it('gets no flag for a realistic session, from the proxy or the sandbox', async () => {
    const account = await h.newAccount();
    const client = new TryOnClient({ baseUrl: `${proxyBase}/api/v1`, apiKey: account.apiKey, clock: sandboxClock(20) });
    const image = await client.uploadImage({ bytes: await makePersonPhoto(), contentType: 'image/jpeg' });
    const garmentImageUrl = urlBody(h).garmentImageUrl;
    const started = await client.startTryOn({ personImageId: image.id, garmentImageUrl, consent: true });
    expect((await client.waitForTryOn(started.id)).status).toBe('success');
    expect((await client.tryOn(input('slow-generation'))).status).toBe('success');
    // A retry with the same key: a start that fails with 502 is retried with backoff until the client stops.
    await expect(client.startTryOn(input('start-failed'))).rejects.toMatchObject({ code: 'START_FAILED' });
    // A 429 waited out: the second start in the minute waits for Retry-After, then goes through.
    await h.control('PUT', `/accounts/${account.accountId}/limits`, { startsPerMinute: 1 });
    await client.startTryOn(input());
    await client.startTryOn(input());
    await new Promise((r) => setTimeout(r, 200));

    const { sandbox, proxy: graded } = await bothGrades(account.accountId, account.apiKey);
    const flags = (g: ClientGrade) =>
      g.callers[0]?.rules.filter((r) => r.verdict === 'fail').map((r) => [r.id, r.failures]);
    expect(flags(graded)).toEqual([]);
    expect(flags(sandbox)).toEqual([]);
    expect(verdicts(graded)).toEqual(verdicts(sandbox));
    // The session met every rule but two: no request was refused, and no try-on stayed pending.
    expect(verdicts(graded)).toEqual({
      'ERR-CLIENT-RETRY-SAME-KEY': 'pass',
      'ERR-CLIENT-NO-UNCHANGED-RETRY': 'not-exercised',
      'ERR-CLIENT-BACKOFF-1-2-4': 'pass',
      'ERR-CLIENT-HONOURS-RETRY-AFTER': 'pass',
      'GET-POLL-EVERY-2-3-SECONDS': 'pass',
      'GET-POLL-GIVE-UP-AFTER-MINUTES': 'not-exercised',
      'SYNC-CLIENT-TIMEOUT-70-SECONDS': 'pass',
      'SYNC-CLIENT-HANDLES-200-AND-202': 'pass',
      'AUTH-KEY-SERVER-SIDE-ONLY': 'pass',
    });
  });
});
