/**
 * `npm run sandbox` end to end (src/sandbox/launch.ts): a throwaway PostgreSQL cluster, 3 `serve`
 * instances and Debian's haproxy. The balancer spreads requests round-robin over the 3 (each /readyz names
 * its instance), an account made through one instance works on every one (one database), haproxy's config
 * passes its own check, an instance whose /readyz does not answer (stopped, then killed) stops getting requests
 * until it answers again, one stopped with SIGTERM drains (not ready first, then gone), and `stop()`
 * leaves no process and no folder behind. Needs Debian's postgresql and haproxy; fails clearly without.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePersonPhoto } from '../../src/fixtures/images.ts';
import { debianHaproxy, type Sandbox, startSandbox } from '../../src/sandbox/launch.ts';
import { quickClient, slowUpload, tally } from '../server/fairness-clients.ts';

let sandbox: Sandbox;
/** This sandbox's temporary folder (other test files may run sandboxes of their own meanwhile). */
let folder: string | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ instances: 3, serveArgs: ['--generation-latency-ms', '50'] });
  folder = ownFolder();
}, 180_000);
afterAll(async () => sandbox?.stop(), 60_000);

/** The sandbox folder whose haproxy.cfg names this sandbox's first instance. */
function ownFolder(): string | undefined {
  const server = `server i1 127.0.0.1:${new URL(sandbox.instances[0]!.url).port}`;
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith('tryon-sandbox-'))
    .find((name) => {
      try {
        return readFileSync(join(tmpdir(), name, 'haproxy.cfg'), 'utf8')
          .split('\n')
          .some((l) => l.trim() === server);
      } catch {
        return false;
      }
    });
}

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await request(`${sandbox.url}${path}`, { headers, headersTimeout: 5_000, bodyTimeout: 5_000 });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

function control(method: string, path: string, body?: unknown) {
  return request(`${sandbox.url}/_control${path}`, {
    method: method as 'GET',
    headers: {
      authorization: `Bearer ${sandbox.controlToken}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
}

async function newAccount(): Promise<{ accountId: string; apiKey: string }> {
  const res = await control('POST', '/accounts');
  expect(res.statusCode).toBe(200);
  return (await res.body.json()) as { accountId: string; apiKey: string };
}

async function uploadThrough(key: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'p.jpg');
  const res = await fetch(`${sandbox.url}/api/v1/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { code?: string } };
}

async function instancesAnswering(count: number): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await get('/readyz');
    expect(res.status).toBe(200);
    names.push(res.json.instance);
  }
  return names;
}

describe('the sandbox: PostgreSQL, 3 instances, haproxy', () => {
  it('spreads requests round-robin over the 3 instances', async () => {
    const names = await instancesAnswering(9);
    expect(new Set(names)).toEqual(new Set(['i1', 'i2', 'i3']));
    // Round-robin: every run of 3 in a row names each instance once.
    for (let i = 0; i + 3 <= names.length; i++) expect(new Set(names.slice(i, i + 3)).size).toBe(3);
    expect(sandbox.instances.map((i) => i.name)).toEqual(['i1', 'i2', 'i3']);
  });

  it('shares one database: an account made through one instance works on every instance', async () => {
    const auth = { authorization: `Bearer ${sandbox.controlToken}` };
    const made = await request(`${sandbox.url}/_control/accounts`, { method: 'POST', headers: auth });
    expect(made.statusCode).toBe(200);
    const { apiKey } = (await made.body.json()) as { apiKey: string };
    for (const instance of sandbox.instances) {
      const res = await request(`${instance.url}/api/v1/account`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect({ instance: instance.name, status: res.statusCode, body: await res.body.json() }).toEqual({
        instance: instance.name,
        status: 200,
        body: { credits: 20 },
      });
    }
    // Through the balancer too, and the instance's own headers pass untouched.
    const ready = await get('/readyz');
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it("passes an answer's headers untouched: the storage quota's 429 keeps Retry-After and RateLimit", async () => {
    const { accountId, apiKey } = await newAccount();
    const photo = await makePersonPhoto({ width: 48, height: 64 });
    const limits = { uploadQuotaBytes: photo.length, uploadsPerMinute: 1_000 };
    expect((await control('PUT', `/accounts/${accountId}/limits`, limits)).statusCode).toBe(200);
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof uploadThrough>> | undefined;
    // The quota is the database's: whichever instance takes the second upload refuses it.
    for (let i = 0; i < 2; i++) {
      const res = await uploadThrough(apiKey, photo);
      statuses.push(res.status);
      if (res.status === 429) refused = res;
    }
    expect(statuses).toEqual([200, 429]);
    expect(refused!.body.code).toBe('RATE_LIMITED');
    expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused!.headers.get('ratelimit-policy')).toBe(`"storage";q=${photo.length};w=86400;qu="content-bytes"`);
    expect(refused!.headers.get('ratelimit')).toMatch(/^"storage";r=0;t=\d+$/);
  });

  it('through the balancer, 300 slow uploads of one client leave another client 100 of 100 requests', async () => {
    const slowAccount = await newAccount();
    const slowKey = slowAccount.apiKey;
    // Its per-minute upload limit out of the way: only the caps on slow connections may refuse it.
    const raised = { uploadsPerMinute: 100_000 };
    expect((await control('PUT', `/accounts/${slowAccount.accountId}/limits`, raised)).statusCode).toBe(200);
    const quickKey = (await newAccount()).apiKey;
    const photo = await makePersonPhoto({ width: 48, height: 64 });
    const slow = Array.from({ length: 300 }, () =>
      slowUpload(sandbox.url, slowKey, photo, { localAddress: '127.0.0.1' }),
    );
    const quick = quickClient(sandbox.url, '127.0.0.2');
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const statuses: number[] = [];
      // 10 at a time every 300 ms: they span the time the slow uploads become slow (2 s).
      for (let batch = 0; batch < 10; batch++) {
        statuses.push(...(await Promise.all(Array.from({ length: 10 }, () => quick.get('/api/v1/account', quickKey)))));
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const slowOutcomes = tally(slow.map((s) => `${s.outcome()}${s.code() ? ` ${s.code()}` : ''}`));
      console.info(
        `fairness through haproxy: quick ${JSON.stringify(tally(statuses))}, slow ${JSON.stringify(slowOutcomes)}`,
      );
      expect(tally(statuses)).toEqual({ 200: 100 });
      // Each instance held the slow client (told apart by X-Forwarded-For) to its own cap of slow connections.
      expect(slowOutcomes['503 UNAVAILABLE'] ?? 0).toBeGreaterThan(0);
    } finally {
      for (const s of slow) s.stop();
      await quick.close();
    }
  }, 60_000);

  it('writes a haproxy configuration that haproxy itself accepts', () => {
    expect(folder).toBeDefined();
    const config = join(tmpdir(), folder!, 'haproxy.cfg');
    const out = execFileSync(debianHaproxy, ['-c', '-f', config], { encoding: 'utf8' });
    expect(out).toContain('Configuration file is valid');
  });

  it('stops sending to an instance whose /readyz stops answering, and sends to it again once it answers', async () => {
    sandbox.kill('i2', 'SIGSTOP');
    try {
      // A stopped process still accepts connections (the kernel does), so only the readiness check can tell.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(new Set(await instancesAnswering(12))).toEqual(new Set(['i1', 'i3']));
    } finally {
      sandbox.kill('i2', 'SIGCONT');
    }
    const deadline = Date.now() + 20_000;
    let back = false;
    while (!back && Date.now() < deadline) {
      back = (await instancesAnswering(3)).includes('i2');
      if (!back) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(back).toBe(true);
  }, 60_000);

  it('stops sending to an instance that was killed, once its /readyz fails, and no request fails', async () => {
    sandbox.kill('i2', 'SIGKILL');
    const statuses: number[] = [];
    const seen: string[] = [];
    const deadline = Date.now() + 20_000;
    // Every request still gets an answer from a live instance (haproxy retries a refused connection on another).
    while (Date.now() < deadline) {
      const res = await get('/readyz');
      statuses.push(res.status);
      seen.push(res.json?.instance);
      if (seen.length >= 12 && seen.slice(-12).every((name) => name !== 'i2')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(seen.slice(-12).filter((name) => name === 'i2')).toEqual([]);
    expect(new Set(await instancesAnswering(12))).toEqual(new Set(['i1', 'i3']));
  }, 60_000);

  it('drains an instance stopped with SIGTERM: not ready at once, out of rotation, then gone; no request fails', async () => {
    const i3 = sandbox.instances.find((i) => i.name === 'i3')!;
    const { apiKey } = await newAccount();
    sandbox.kill('i3', 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const own = await request(`${i3.url}/readyz`);
    const body = (await own.body.json()) as { code: string; error: string };
    expect({ status: own.statusCode, code: body.code }).toEqual({ status: 503, code: 'UNAVAILABLE' });
    expect(body.error).toContain('draining');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      // The API still answers on a draining instance; only its /readyz says not ready.
      statuses.push((await get('/api/v1/account', { authorization: `Bearer ${apiKey}` })).status);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(tally(statuses)).toEqual({ 200: 20 });
    expect(new Set(await instancesAnswering(6))).toEqual(new Set(['i1']));
    const deadline = Date.now() + 20_000;
    while (alive(i3.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(i3.pid)).toBe(false);
  }, 60_000);

  it('answers 503 UNAVAILABLE in the envelope, with Retry-After, when no instance is ready', async () => {
    sandbox.kill('i1', 'SIGSTOP');
    try {
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      const res = await get('/api/v1/account');
      expect({ status: res.status, code: res.json?.code, retryAfter: res.headers['retry-after'] }).toEqual({
        status: 503,
        code: 'UNAVAILABLE',
        retryAfter: '1',
      });
      expect(res.headers['x-sandbox-balancer']).toBeUndefined();
    } finally {
      sandbox.kill('i1', 'SIGCONT');
    }
  }, 30_000);

  it('stops everything: no instance process, no balancer, no folder left', async () => {
    await sandbox.stop();
    for (const instance of sandbox.instances) expect(alive(instance.pid), instance.name).toBe(false);
    await expect(request(`${sandbox.url}/readyz`)).rejects.toThrow();
    expect(folder).toBeDefined();
    expect(existsSync(join(tmpdir(), folder!))).toBe(false);
  }, 60_000);
});

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// The binaries this project needs; without them it fails here with the reason, never passes silently.
if (!existsSync(debianHaproxy)) throw new Error(`tests/sandbox needs Debian's haproxy at ${debianHaproxy}`);
