/**
 * Each instance on PostgreSQL caches keys, limits and final try-ons, as the embedded store does; a change
 * made through another instance is seen by the very next request anywhere. Three instances, each warmed
 * with polls of one try-on (its key, limits and the final try-on cached), then a limits change, a key
 * revoked, a key rotated and a sweep, each through another instance and checked at once on the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/launch.ts';
import { call, newAccount, startBody, waitFinal } from './cluster-helpers.ts';

let sandbox: Sandbox;
let bases: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ instances: 3, serveArgs: ['--generation-latency-ms', '0'] });
  bases = sandbox.instances.map((i) => i.url);
}, 120_000);
afterAll(async () => {
  await sandbox?.stop();
});

const poll = (base: string, key: string, id: string) => call(base, 'GET', `/api/v1/tryons/${id}`, key);

describe('read caches of instances on one database', () => {
  it('a limits change, a revoked key, a new key and a sweep made elsewhere hold at the next request', async () => {
    const token = sandbox.controlToken;
    const [a, b, c] = bases as [string, string, string];
    const { accountId, apiKey } = await newAccount(a, token, { pollsPerMinute: 1_000, startsPerMinute: 100 });
    const started = await call(a, 'POST', '/api/v1/tryons', apiKey, await startBody(a, apiKey), 'reads-cached-1');
    expect(started.status).toBe(200);
    const id = String(started.json.id);
    expect((await waitFinal(bases, apiKey, id)).json.status).toBe('success');
    // Warm every instance: the key, the limits and the final try-on are now in each one's cache.
    for (const base of [a, b, a, b]) expect((await poll(base, apiKey, id)).status).toBe(200);

    // The window holds more than one poll: a limit of 1 refuses the next poll on every instance.
    const lowered = await call(c, 'PUT', `/_control/accounts/${accountId}/limits`, token, { pollsPerMinute: 1 });
    expect(lowered.status).toBe(200);
    for (const base of [a, b]) {
      const refused = await poll(base, apiKey, id);
      expect(refused.status).toBe(429);
      expect(refused.headers['ratelimit-policy']).toBe('"polls";q=1;w=60');
    }
    await call(c, 'PUT', `/_control/accounts/${accountId}/limits`, token, { pollsPerMinute: 1_000 });
    for (const base of [a, b]) expect((await poll(base, apiKey, id)).status).toBe(200);

    // A key revoked through one instance is refused at once by the others.
    expect((await call(c, 'POST', `/_control/accounts/${accountId}/revoke-key`, token)).status).toBe(200);
    for (const base of [a, b]) {
      const refused = await poll(base, apiKey, id);
      expect(refused.status).toBe(401);
      expect(refused.json.code).toBe('INVALID_API_KEY');
    }
    // A new key works everywhere at once, and the old one stays refused.
    const rotated = await call(c, 'POST', `/_control/accounts/${accountId}/rotate-key`, token);
    const newKey = String(rotated.json.apiKey);
    for (const base of [a, b]) {
      expect((await poll(base, newKey, id)).status).toBe(200);
      expect((await poll(base, apiKey, id)).status).toBe(401);
    }

    // Past the record retention, a sweep through one instance deletes the try-on: gone on every instance.
    const moved = await call(c, 'POST', '/_control/clock/advance', token, { seconds: 31 * 24 * 3600 });
    expect(moved.status).toBe(200);
    for (const base of [a, b]) {
      const gone = await poll(base, newKey, id);
      expect(gone.status).toBe(404);
      expect(gone.json.code).toBe('NOT_FOUND');
    }
  }, 120_000);
});
