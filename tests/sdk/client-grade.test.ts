/**
 * Client grading in the sandbox (issue 14, item 3): our own client gets a clean grade, a careless
 * client (new key per retry, no backoff, polling every 100 ms, a short sync timeout, a browser
 * Origin) fails the matching rules with the requests as redacted evidence, and a rule the client
 * never met is "not exercised". The server's clock moves with the client's injected waits.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pool, request } from 'undici';
import { TryOnClient, type ClientClock, type TryOnInput } from '../../src/sdk/index.ts';
import type { ScenarioName } from '../../src/fixtures/scenarios.ts';
import { clientRules } from '../../src/grade/client-rules.ts';
import type { ClientGrade, GradedRule } from '../../src/grade/grade.ts';
import { gradeFormats } from '../../src/grade/write-grade.ts';
import { allRequirements, type RequirementId } from '../../src/contract/requirements.ts';
import { startHarness, urlBody, type Harness } from '../server/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    gradeClients: true,
    settings: { syncWaitMs: 300, slowGenerationMs: 3_000, generationLatencyMs: 50 },
  });
});
afterAll(async () => {
  await h?.close();
});

const input = (scenario?: ScenarioName): TryOnInput => ({ ...urlBody(h, scenario), consent: true });
const advance = async (ms: number) => void (await h.control('POST', '/clock/advance', { seconds: ms / 1000 }));

/** The client's waits move the server's clock by as much, and take ms/divisor of real time. */
function serverClock(divisor: number): ClientClock {
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

async function gradeOf(accountId: string, format = 'json'): Promise<{ text: string; grade: ClientGrade }> {
  const res = await h.control('GET', `/client-grade?format=${format}&caller=${accountId}`);
  expect(res.status).toBe(200);
  const text = res.body.toString();
  return { text, grade: format === 'json' ? (JSON.parse(text) as ClientGrade) : (undefined as unknown as ClientGrade) };
}

const verdicts = (g: ClientGrade): Record<string, string> =>
  Object.fromEntries((g.callers[0]?.rules ?? []).map((r) => [r.id, r.verdict]));
const rule = (g: ClientGrade, id: RequirementId): GradedRule | undefined =>
  g.callers[0]?.rules.find((r) => r.id === id);

describe('the catalogue', () => {
  it('has one grade rule per client requirement the sandbox can see, and no other', () => {
    const graded = allRequirements()
      .filter((r) => r.clientGrade === true)
      .map((r) => r.id);
    expect(clientRules.map((r) => r.id).sort()).toEqual([...graded].sort());
    expect(graded).toHaveLength(9);
  });
});

describe('our client', () => {
  it('gets a clean grade, every rule exercised', async () => {
    const account = await h.newAccount();
    const client = new TryOnClient({ baseUrl: `${h.base}/api/v1`, apiKey: account.apiKey, clock: serverClock(20) });
    await expect(client.startTryOn(input('start-failed'))).rejects.toMatchObject({ code: 'START_FAILED' });
    await expect(client.startTryOn(input('unavailable'))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(client.tryOn(input('person-rejected'))).rejects.toMatchObject({ code: 'PERSON_PHOTO_REJECTED' });
    expect((await client.tryOn(input('slow-generation'))).status).toBe('success');
    await h.control('PUT', `/accounts/${account.accountId}/limits`, { startsPerMinute: 1 });
    await client.startTryOn(input());
    await client.startTryOn(input());
    // Give-up: a client that polls a try-on still pending stops within a few minutes.
    const patient = new TryOnClient({
      baseUrl: `${h.base}/api/v1`,
      apiKey: account.apiKey,
      clock: serverClock(1_000),
      giveUpAfterMs: 60_000,
    });
    await advance(60_000);
    const slow = await patient.startTryOn(input('slow-generation'));
    await expect(patient.waitForTryOn(slow.id)).rejects.toMatchObject({ code: 'CLIENT_GAVE_UP' });
    await advance(11 * 60_000);

    const { grade } = await gradeOf(account.accountId);
    const failing = grade.callers[0]?.rules.filter((r) => r.verdict === 'fail') ?? [];
    expect(failing.map((r) => [r.id, r.failures])).toEqual([]);
    expect(verdicts(grade)).toEqual(Object.fromEntries(clientRules.map((r) => [r.id, 'pass'])));
  });
});

describe('a careless client', () => {
  it('fails the rules it breaks, each with the requests as redacted evidence', async () => {
    const account = await h.newAccount();
    const base = `${h.base}/api/v1`;
    let n = 0;
    const send = async (
      method: 'GET' | 'POST',
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
      timeoutMs?: number,
    ) => {
      const res = await request(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? null : JSON.stringify(body),
        ...(timeoutMs !== undefined && { signal: AbortSignal.timeout(timeoutMs) }),
      });
      return { status: res.statusCode, json: (await res.body.json()) as { id: string; status: string } };
    };
    const freshKey = () => `careless-${Date.now()}-${++n}`;

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
    expect((await send('POST', '/tryons', input('slow-generation'), { 'idempotency-key': limitedKey })).status).toBe(
      429,
    );
    expect((await send('POST', '/tryons', input('slow-generation'), { 'idempotency-key': limitedKey })).status).toBe(
      429,
    );
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
    // A sync call dropped after 100 ms.
    await expect(
      send('POST', '/tryons/sync', input('slow-generation'), { 'idempotency-key': freshKey() }, 100),
    ).rejects.toThrow();
    // A browser's Origin header.
    await send('GET', '/account', undefined, { origin: 'https://shop.example' });
    await new Promise((r) => setTimeout(r, 400));

    const { grade } = await gradeOf(account.accountId);
    expect(verdicts(grade)).toEqual({
      'ERR-CLIENT-RETRY-SAME-KEY': 'fail',
      'ERR-CLIENT-NO-UNCHANGED-RETRY': 'fail',
      'ERR-CLIENT-BACKOFF-1-2-4': 'fail',
      'ERR-CLIENT-HONOURS-RETRY-AFTER': 'fail',
      'GET-POLL-EVERY-2-3-SECONDS': 'fail',
      'GET-POLL-GIVE-UP-AFTER-MINUTES': 'fail',
      'SYNC-CLIENT-TIMEOUT-70-SECONDS': 'fail',
      'SYNC-CLIENT-HANDLES-200-AND-202': 'not-exercised',
      'AUTH-KEY-SERVER-SIDE-ONLY': 'fail',
    });
    expect(rule(grade, 'ERR-CLIENT-RETRY-SAME-KEY')?.failures[0]?.what).toMatch(/new Idempotency-Key/);
    expect(rule(grade, 'ERR-CLIENT-RETRY-SAME-KEY')?.failures[0]?.evidence).toEqual([
      expect.stringMatching(
        /POST \/api\/v1\/tryons Idempotency-Key: careless-\S+ body sha256:\w{12} → 502 START_FAILED$/,
      ),
      expect.stringMatching(
        /POST \/api\/v1\/tryons Idempotency-Key: careless-\S+ body sha256:\w{12} → 502 START_FAILED$/,
      ),
    ]);
    expect(rule(grade, 'SYNC-CLIENT-TIMEOUT-70-SECONDS')?.failures[0]?.evidence[0]).toMatch(
      /dropped by the client after/,
    );
    expect(rule(grade, 'AUTH-KEY-SERVER-SIDE-ONLY')?.failures[0]?.evidence[0]).toMatch(
      /Origin: https:\/\/shop.example/,
    );
    for (const format of ['json', 'junit', 'markdown', 'html']) {
      const { text } = await gradeOf(account.accountId, format);
      expect(text).not.toContain(account.apiKey);
      expect(text).toContain('ERR-CLIENT-RETRY-SAME-KEY');
    }
    const junit = (await gradeOf(account.accountId, 'junit')).text;
    expect(junit.match(/<failure /g)).toHaveLength(8);
    expect(junit.match(/<skipped /g)).toHaveLength(1);
  });
});

describe('the grade endpoint', () => {
  it('reports a rule with nothing to judge as not exercised, not passed', async () => {
    const account = await h.newAccount();
    await h.call('GET', '/api/v1/account', { key: account.apiKey });
    const { grade } = await gradeOf(account.accountId);
    const { 'AUTH-KEY-SERVER-SIDE-ONLY': browser, ...rest } = verdicts(grade);
    expect(browser).toBe('pass');
    expect(new Set(Object.values(rest))).toEqual(new Set(['not-exercised']));
  });

  it('puts a CORS preflight, which carries no key, under the callers without a key', async () => {
    await h.call('OPTIONS', '/api/v1/tryons', {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    const res = await h.control('GET', '/client-grade?format=markdown');
    expect(res.body.toString()).toMatch(/## no API key: FAIL/);
    expect(res.body.toString()).toMatch(/CORS preflight/);
  });

  it('refuses an unknown format with 400', async () => {
    expect((await h.control('GET', '/client-grade?format=pdf')).status).toBe(400);
  });
});

describe('redaction', () => {
  it('keeps a key out of every format, wherever the client put it: path, query, Idempotency-Key, Origin, body', async () => {
    const account = await h.newAccount();
    const other = await h.newAccount();
    const key = account.apiKey;
    const encoded = [...key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const secret = 'hunter2-not-a-key-shaped-secret';
    const signs = { origin: `https://shop.example/${key}` };
    // Browser signs make each request a failure of AUTH-KEY-SERVER-SIDE-ONLY, so its evidence line is in every format.
    await h.call('GET', `/api/v1/tryons/${key}?apiKey=${key}`, { key, headers: { ...signs, 'idempotency-key': key } });
    await h.call('GET', `/api/v1/tryons/${encoded}`, { key, headers: signs });
    const retryKey = { ...signs, 'idempotency-key': `retry-${key}-1` };
    await h.call('POST', '/api/v1/tryons', { key, json: { ...urlBody(h), note: key }, headers: retryKey });
    await h.call('GET', `/api/v1/tryons/id-${other.apiKey}`, { key, headers: signs });
    await h.call('GET', `/api/v1/tryons/${secret}`, {
      key: secret,
      headers: { origin: `https://a.example/${secret}` },
    });
    const unknown = `unknown key sha256:${createHash('sha256').update(secret).digest('hex').slice(0, 8)}`;

    const { grade } = await gradeOf(account.accountId);
    expect(rule(grade, 'AUTH-KEY-SERVER-SIDE-ONLY')?.failures.map((f) => f.evidence[0])).toEqual([
      expect.stringMatching(
        / GET \/api\/v1\/tryons\/\[key redacted\] Idempotency-Key: \[key redacted\] \[Origin: https:\/\/shop.example\/\[key redacted\]\] → 404/,
      ),
      expect.stringMatching(/ GET \/api\/v1\/tryons\/\[key redacted\] \[Origin/),
      expect.stringMatching(
        / POST \/api\/v1\/tryons Idempotency-Key: retry-\[key redacted\]-1 body sha256:\w{12} \[Origin/,
      ),
      expect.stringMatching(/ GET \/api\/v1\/tryons\/id-\[key redacted\] \[Origin/),
    ]);
    for (const format of gradeFormats) {
      const text = (await h.control('GET', `/client-grade?format=${format}`)).body.toString();
      for (const leaked of [key, encoded, other.apiKey, secret, key.slice(9)]) expect(text).not.toContain(leaked);
      expect(text).toContain('[key redacted]');
      expect(text).toContain(unknown);
    }
  });
});

describe('a flood of requests', () => {
  let flooded: Harness;
  beforeAll(async () => {
    flooded = await startHarness({ gradeClients: true });
  });
  afterAll(async () => {
    await flooded?.close();
  });

  it('is kept bounded and counted, and neither pushes out nor slows the grade of an account', async () => {
    const account = await flooded.newAccount();
    await flooded.call('GET', '/api/v1/account', { key: account.apiKey, headers: { origin: 'https://shop.example' } });
    // 40,000 requests without a key, each with a 2 KiB path of its own.
    const pool = new Pool(flooded.base, { connections: 8, pipelining: 8 });
    const total = 40_000;
    const pad = 'a'.repeat(2_000);
    let next = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < total) {
          const res = await pool.request({ method: 'GET', path: `/api/v1/tryons/${pad}${next++}` });
          await res.body.dump();
        }
      }),
    );
    await pool.close();

    const started = Date.now();
    const all = await flooded.control('GET', '/client-grade?format=json');
    // Did not hang: unbounded, this read took over 30 s of CPU.
    expect(Date.now() - started).toBeLessThan(5_000);
    const grade = JSON.parse(all.body.toString()) as ClientGrade;
    expect(grade.callers.map((c) => [c.caller, c.requests])).toEqual([
      [account.accountId, 1],
      ['no API key', grade.recording?.withoutAccount],
    ]);
    const letGo = total - (grade.recording?.withoutAccount ?? 0);
    expect(grade.recording).toMatchObject({ notKept: letGo, notKeptWithoutAccount: letGo });
    expect(grade.callers[0]?.rules.find((r) => r.id === 'AUTH-KEY-SERVER-SIDE-ONLY')?.verdict).toBe('fail');
    const markdown = await flooded.control('GET', `/client-grade?format=markdown&caller=${account.accountId}`);
    expect(markdown.body.toString()).toMatch(
      /; \d+ older request\(s\) not kept, so not graded \(each account keeps its latest \d+/,
    );
  }, 120_000);
});
