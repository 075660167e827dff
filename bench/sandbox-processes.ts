/**
 * The processes of the sandbox benchmark (sandbox-bench.ts): a throwaway PostgreSQL cluster, `serve`
 * instances on it or on their own SQLite file, and Debian's haproxy in front of some of them with the
 * configuration `npm run sandbox` writes (src/sandbox/haproxy-config.ts). Every instance runs the same
 * code and flags but for its database: the compiled build when BENCH_SERVER_DIST names one (as the
 * installed package runs), else the sources under tsx. Every address is loopback; every wait is bounded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { haproxyConfig } from '../src/sandbox/haproxy-config.ts';
import { debianHaproxy } from '../src/sandbox/launch.ts';
import { freePort, listeningUrl, waitUntil } from '../src/sandbox/launch-wait.ts';
import { debianPgBin, type PgCluster, startPgCluster } from '../src/sandbox/pg-cluster.ts';
import { controlToken, repoRoot } from './common.ts';

export interface Instance {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** SIGTERM, SIGKILL after 15 s; resolves once the process is gone. */
  stop(): Promise<void>;
}

export interface Balancer {
  readonly url: string;
  stop(): Promise<void>;
}

/** What the PostgreSQL part needs and is missing on this machine: one line each, empty when all is there. */
export function missingTools(): string[] {
  const missing: string[] = [];
  const executable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (!executable(join(debianPgBin, 'initdb')) && !onPath('initdb'))
    missing.push(`PostgreSQL (initdb not in ${debianPgBin} nor on PATH; Debian: apt-get install postgresql)`);
  if (!executable(debianHaproxy)) missing.push(`haproxy (not at ${debianHaproxy}; Debian: apt-get install haproxy)`);
  return missing;
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** A cluster with room for every instance's two pools and listener, flushing its commits as a provider's does. */
export function startCluster(): Promise<PgCluster> {
  return startPgCluster({ settings: ['max_connections=200'], durable: true });
}

/** The CLI the instances run: the compiled build (dist) when the bench made one, else the repository's launcher. */
function cliEntry(): string {
  const dist = process.env.BENCH_SERVER_DIST;
  return dist ? join(dist, 'cli', 'main.js') : join(repoRoot, 'bin', 'tryon-conformance.js');
}

/**
 * Starts one `serve` instance on a free loopback port with test control (the bench's token) and `flags`;
 * resolves once it listens (at most 60 s).
 */
export async function startInstance(name: string, db: string, flags: readonly string[]): Promise<Instance> {
  const args = [cliEntry(), 'serve', '--db', db, '--host', '127.0.0.1', '--port', '0', '--instance', name, ...flags];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TRYON_CONTROL_TOKEN: controlToken },
  });
  child.stderr?.resume();
  const url = await listeningUrl(child, `instance ${name}`, 60_000);
  return { name, url, pid: child.pid ?? -1, stop: () => stopChild(child) };
}

/**
 * haproxy round-robin over `instances`, configured as `npm run sandbox` does for instances holding a sync up
 * to `syncWaitMs` (its client and server timeouts outlast it); resolves once it answers /readyz.
 */
export async function startBalancer(
  dir: string,
  instances: readonly Instance[],
  syncWaitMs: number,
): Promise<Balancer> {
  const port = await freePort('127.0.0.1');
  const held = haproxyConfig({
    bindHost: '127.0.0.1',
    bindPort: port,
    instances: instances.map((i) => ({ name: i.name, host: '127.0.0.1', port: Number(new URL(i.url).port) })),
    syncWaitMs,
  });
  const path = join(dir, `haproxy-${port}.cfg`);
  writeFileSync(path, held);
  const child = spawn(debianHaproxy, ['-db', '-f', path], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.resume();
  child.on('error', () => undefined);
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(30_000, `haproxy did not answer on ${url}/readyz`, async () => {
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return res.status === 200;
    } catch {
      return false;
    }
  });
  return { url, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
