/**
 * Three `serve` instances on one PostgreSQL database behave as one server (the sandbox as `npm run sandbox`
 * starts it; requests sent to the instances directly, in turn, so the spread is known): one try-on and one
 * charge for 20 parallel requests with one Idempotency-Key (and for a start whose key claim lapsed while another
 * start bound the key), exactly one 429 for 13 starts in a minute,
 * parallel spends never below 0, and the clock, test names, held syncs and client grades are the sandbox's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureHost, startFixtureHost } from '../../src/fixtures/fixture-host.ts';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/launch.ts';
import { type Answer, call, ledgerOf, newAccount, startBody, waitFinal } from './cluster-helpers.ts';
import { query } from './store-pg-helpers.ts';

let sandbox: Sandbox;
let bases: string[];
// An HTTPS host the instances trust, dripping a person photo slowly: a start with its URL stays in flight.
let fixtures: FixtureHost;
const dir = mkdtempSync(join(tmpdir(), 'cluster-concurrency-'));

beforeAll(async () => {
  const photo = await makePersonPhoto({ width: 48, height: 64 });
  fixtures = await startFixtureHost({ files: { 'person.jpg': { body: photo, contentType: 'image/jpeg' } } });
  writeFileSync(join(dir, 'ca.pem'), fixtures.ca);
  const trust = ['--trusted-origin', fixtures.origin, '--trusted-ca', join(dir, 'ca.pem')];
  sandbox = await startSandbox({
    instances: 3,
    serveArgs: ['--generation-latency-ms', '1500', '--sync-wait-ms', '30000', ...trust],
  });
  bases = sandbox.instances.map((i) => i.url);
}, 120_000);
afterAll(async () => {
  await sandbox?.stop();
  await fixtures?.close();
  rmSync(dir, { recursive: true, force: true });
});

const on = (i: number) => bases[i % bases.length]!;
const tally = (answers: readonly Answer[]) => {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const label = `${a.status} ${a.json?.code ?? a.json?.status ?? ''}`.trim();
    out[label] = (out[label] ?? 0) + 1;
  }
  return out;
};

describe('3 instances on one database, as one server', () => {
  it('20 parallel requests with one Idempotency-Key over the 3 instances: one try-on, one charge', async () => {
    const token = sandbox.controlToken;
    const { accountId, apiKey } = await newAccount(on(0), token, { startsPerMinute: 1_000 });
    const uploaded = await startBody(on(1), apiKey);
    // The person photo arrives in 4 parts over about a second: the first start is in flight that long.
    const slowPhoto = fixtures.url('/drip?file=person.jpg&chunks=4&interval=300');
    const body = { personImageUrl: slowPhoto, garmentImageId: uploaded.garmentImageId, consent: true };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(on(i), 'POST', '/api/v1/tryons', apiKey, body, 'one-key-for-twenty')),
    );
    // Each answer is the try-on (new or replayed) or "in use, retry": never a second try-on, never a 5xx.
    const started = answers.filter((a) => a.status === 200);
    const inUse = answers.filter((a) => a.status === 409 && a.json.code === 'IDEMPOTENCY_KEY_IN_USE');
    expect({ other: answers.length - started.length - inUse.length, answers: tally(answers) }).toMatchObject({
      other: 0,
    });
    expect(new Set(started.map((a) => a.json.id)).size).toBe(1);
    const rows = await query(sandbox.databaseUrl, 'SELECT id FROM tryons WHERE account_id = $1', [accountId]);
    expect(rows).toEqual([{ id: started[0]!.json.id }]);
    await waitFinal(bases, apiKey, started[0]!.json.id);
    expect(await ledgerOf(sandbox.databaseUrl, accountId)).toEqual({ balance: 19, reserves: 1, doubleReserved: 0 });
    expect((await call(on(2), 'GET', '/api/v1/account', apiKey)).json).toEqual({ credits: 19 });
  });

  it('a start whose key claim lapsed while another start bound the key answers that try-on, charged once', async () => {
    const db = sandbox.databaseUrl;
    const { accountId, apiKey } = await newAccount(on(0), sandbox.controlToken, { startsPerMinute: 1_000 });
    const uploaded = await startBody(on(1), apiKey);
    // The person photo arrives over about a second: both starts below stay in flight that long, one after the other.
    const slowPhoto = fixtures.url('/drip?file=person.jpg&chunks=4&interval=300');
    const body = { personImageUrl: slowPhoto, garmentImageId: uploaded.garmentImageId, consent: true };
    const key = 'claim-lapsed-key';
    const first = call(on(0), 'POST', '/api/v1/tryons', apiKey, body, key);
    // Once the first start holds the key's claim, the claim lapses (its instance stalled past the claim's life),
    // and the same request sent again through another instance takes the claim over and starts too.
    const claimed = 'SELECT 1 AS one FROM inflight_keys WHERE account_id = $1 AND key = $2';
    for (const deadline = Date.now() + 10_000; (await query(db, claimed, [accountId, key])).length === 0; ) {
      if (Date.now() > deadline) throw new Error('the first start never claimed its key');
      await new Promise((r) => setTimeout(r, 20));
    }
    await query(db, 'UPDATE inflight_keys SET claimed_until = 0 WHERE account_id = $1 AND key = $2', [accountId, key]);
    const answers = await Promise.all([first, call(on(1), 'POST', '/api/v1/tryons', apiKey, body, key)]);
    // Spec (POST /tryons rule 3): the key's earlier try-on, not a 500 nor a second try-on or charge.
    expect(answers.map((a) => `${a.status} ${a.json.code ?? a.json.status}`)).toEqual(['200 pending', '200 pending']);
    expect(answers[1]!.json.id).toBe(answers[0]!.json.id);
    expect(answers.map((a) => a.headers['idempotent-replayed']).filter((h) => h === 'true')).toHaveLength(1);
    const rows = await query(db, 'SELECT id FROM tryons WHERE account_id = $1', [accountId]);
    expect(rows).toEqual([{ id: answers[0]!.json.id }]);
    await waitFinal(bases, apiKey, answers[0]!.json.id);
    // Both reserved a credit; the second start's went back.
    expect(await ledgerOf(db, accountId)).toEqual({ balance: 19, reserves: 2, doubleReserved: 0 });
  });

  it('13 starts within a minute over the 3 instances: exactly one 429, with Retry-After', async () => {
    const { apiKey } = await newAccount(on(0), sandbox.controlToken);
    const body = await startBody(on(0), apiKey);
    const answers: Answer[] = [];
    // In turn, so the 13th is the one over the limit of 12 a minute, wherever it lands.
    for (let i = 0; i < 13; i++)
      answers.push(await call(on(i), 'POST', '/api/v1/tryons', apiKey, body, `rate-key-${i}`));
    const limited = answers.filter((a) => a.status === 429);
    expect(tally(answers)).toEqual({ '200 pending': 12, '429 RATE_LIMITED': 1 });
    expect(answers.indexOf(limited[0]!)).toBe(12);
    const retryAfter = Number(limited[0]!.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(limited[0]!.headers.ratelimit).toBe(`"starts";r=0;t=${retryAfter}`);
  });

  it('30 parallel spends of 5 credits over the 3 instances: 5 start, 25 are refused, the balance never below 0', async () => {
    const token = sandbox.controlToken;
    const { accountId, apiKey } = await newAccount(on(0), token, { startsPerMinute: 1_000 });
    expect((await call(on(1), 'PUT', `/_control/accounts/${accountId}/credits`, token, { credits: 5 })).status).toBe(
      200,
    );
    const body = await startBody(on(2), apiKey);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(on(i), 'POST', '/api/v1/tryons', apiKey, body, `spend-key-${i}`)),
    );
    expect(tally(answers)).toEqual({ '200 pending': 5, '402 INSUFFICIENT_CREDITS': 25 });
    const ledger = await ledgerOf(sandbox.databaseUrl, accountId);
    expect(ledger).toEqual({ balance: 0, reserves: 5, doubleReserved: 0 });
    // Never below 0 at any point of the ledger, in the order it was written.
    const [lowest] = await query<{ low: number }>(
      sandbox.databaseUrl,
      'SELECT min(running)::int AS low FROM (SELECT sum(delta) OVER (ORDER BY seq) AS running FROM ledger WHERE account_id = $1) s',
      [accountId],
    );
    expect(lowest!.low).toBe(0);
  });

  it('the clock one instance moves is the time of every instance at its next request', async () => {
    const token = sandbox.controlToken;
    const { apiKey } = await newAccount(on(0), token);
    const body = await startBody(on(0), apiKey);
    // Image ids live 24 hours: moved 25 hours on one instance, they are gone on the others at once.
    const moved = await call(on(1), 'POST', '/_control/clock/advance', token, { seconds: 25 * 3600 });
    expect(moved.status).toBe(200);
    const movedTo = Date.parse(moved.json.now);
    for (const i of [2, 0]) {
      const settings = await call(on(i), 'GET', '/_control/settings', token);
      expect(Date.parse(settings.json.now)).toBeGreaterThanOrEqual(movedTo);
      const start = await call(on(i), 'POST', '/api/v1/tryons', apiKey, body, `late-key-${i}`);
      expect({ instance: i, status: start.status, code: start.json.code }).toEqual({
        instance: i,
        status: 400,
        code: 'INVALID_IMAGE_ID',
      });
    }
  });

  it('a test name set through one instance resolves on every instance', async () => {
    const token = sandbox.controlToken;
    const { apiKey } = await newAccount(on(0), token, { startsPerMinute: 1_000 });
    const name = `img-${Date.now().toString(36)}.test`;
    expect((await call(on(0), 'PUT', `/_control/names/${name}`, token, { addresses: ['10.0.0.7'] })).status).toBe(200);
    // Set, the name resolves to a private address, which a start refuses as such; unset, it would not resolve.
    for (const i of [1, 2]) {
      const body = { personImageUrl: `https://${name}/p.jpg`, garmentImageUrl: `https://${name}/g.png`, consent: true };
      const start = await call(on(i), 'POST', '/api/v1/tryons', apiKey, body, `name-key-${i}`);
      expect({ instance: i, status: start.status, code: start.json.code }).toEqual({
        instance: i,
        status: 400,
        code: 'INVALID_IMAGE_URL',
      });
      expect(start.json.error).toMatch(/10\.0\.0\.7|private|not allowed/i);
    }
  });

  it('a sync request held on one instance is answered when another instance finishes its try-on', async () => {
    const { apiKey } = await newAccount(on(0), sandbox.controlToken);
    const body = await startBody(on(0), apiKey);
    // Started (and generated) by instance 1; the same key's sync request is held on instance 2.
    const started = await call(on(1), 'POST', '/api/v1/tryons', apiKey, body, 'held-elsewhere-1');
    expect(started.status).toBe(200);
    const heldAt = Date.now();
    const held = await call(on(2), 'POST', '/api/v1/tryons/sync', apiKey, body, 'held-elsewhere-1');
    expect({ status: held.status, id: held.json.id, final: held.json.status !== 'pending' }).toEqual({
      status: 200,
      id: started.json.id,
      final: true,
    });
    // Woken by the finish (about 1.5 s), not by the end of its 30 s wait, when it would read the final state too.
    expect(Date.now() - heldAt).toBeLessThan(15_000);
  });

  it("a client grade read on one instance covers the caller's requests on every instance", async () => {
    const token = sandbox.controlToken;
    const { accountId, apiKey } = await newAccount(on(0), token);
    for (let i = 0; i < 6; i++) expect((await call(on(i), 'GET', '/api/v1/account', apiKey)).status).toBe(200);
    for (const i of [0, 1, 2]) {
      const grade = await call(on(i), 'GET', `/_control/client-grade?caller=${accountId}`, token);
      expect({
        instance: i,
        status: grade.status,
        callers: grade.json.callers.map((c: { caller: string; requests: number }) => [c.caller, c.requests]),
      }).toEqual({
        instance: i,
        status: 200,
        callers: [[accountId, 6]],
      });
    }
  });
});
