/**
 * `npm run sandbox` end to end (src/sandbox/launch.ts): a throwaway PostgreSQL cluster, 3 `serve`
 * instances and Debian's haproxy. The balancer spreads requests round-robin over the 3 (each /readyz names
 * its instance), an account made through one instance works on every one (one database), haproxy's config
 * passes its own check, an instance whose /readyz does not answer (stopped, then killed) stops getting requests
 * until it answers again, and `stop()`
 * leaves no process and no folder behind. Needs Debian's postgresql and haproxy; fails clearly without.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianHaproxy, type Sandbox, startSandbox } from '../../src/sandbox/launch.ts';

let sandbox: Sandbox;
let foldersBefore: Set<string>;

beforeAll(async () => {
  foldersBefore = new Set(sandboxFolders());
  sandbox = await startSandbox({ instances: 3, serveArgs: ['--generation-latency-ms', '50'] });
}, 180_000);
afterAll(async () => sandbox?.stop(), 60_000);

function sandboxFolders(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('tryon-sandbox-'));
}

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await request(`${sandbox.url}${path}`, { headers, headersTimeout: 5_000, bodyTimeout: 5_000 });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined };
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

  it('writes a haproxy configuration that haproxy itself accepts', () => {
    const dir = [...sandboxFolders()].find((name) => !foldersBefore.has(name));
    expect(dir).toBeDefined();
    const config = join(tmpdir(), dir!, 'haproxy.cfg');
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

  it('stops everything: no instance process, no balancer, no folder left', async () => {
    await sandbox.stop();
    for (const instance of sandbox.instances) expect(alive(instance.pid), instance.name).toBe(false);
    await expect(request(`${sandbox.url}/readyz`)).rejects.toThrow();
    expect(sandboxFolders().filter((name) => !foldersBefore.has(name))).toEqual([]);
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
