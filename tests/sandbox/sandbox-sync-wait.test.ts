/**
 * `npm run sandbox -- --sync-wait-ms N` (src/sandbox/launch.ts): the balancer holds a request at least as
 * long as the instances hold a sync. With the instances told to hold 10 minutes, haproxy's client and server
 * timeouts written by the launcher outlast 10 minutes (a shorter one would cut held syncs off with a 503), and
 * haproxy accepts the file. Needs Debian's postgresql and haproxy.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianHaproxy, type Sandbox, startSandbox } from '../../src/sandbox/launch.ts';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ instances: 1, serveArgs: ['--sync-wait-ms', '600000'] });
}, 180_000);
afterAll(async () => sandbox?.stop(), 60_000);

/** The haproxy.cfg the launcher wrote for this sandbox: the one whose server line names its instance's port. */
function balancerConfig(): { path: string; text: string } {
  const server = `server i1 127.0.0.1:${new URL(sandbox.instances[0]!.url).port}`;
  for (const dir of readdirSync(tmpdir()).filter((name) => name.startsWith('tryon-sandbox-'))) {
    const path = join(tmpdir(), dir, 'haproxy.cfg');
    try {
      const text = readFileSync(path, 'utf8');
      if (text.split('\n').some((line) => line.trim() === server)) return { path, text };
    } catch {
      // Another sandbox's folder without a config yet, or gone meanwhile.
    }
  }
  throw new Error(`no haproxy.cfg in ${tmpdir()} names ${server}`);
}

describe('the sandbox with a longer sync wait', () => {
  it("gives haproxy client and server timeouts longer than the instances' sync wait", () => {
    const { path, text } = balancerConfig();
    const timeouts = [...text.matchAll(/^\s*timeout (client|server) (\d+)ms$/gm)].map((m) => [m[1], Number(m[2])]);
    expect(timeouts.map(([side]) => side).sort()).toEqual(['client', 'server']);
    for (const [, ms] of timeouts) expect(ms).toBeGreaterThan(600_000);
    const out = execFileSync(debianHaproxy, ['-c', '-f', path], { encoding: 'utf8' });
    expect(out).toContain('Configuration file is valid');
  });
});
