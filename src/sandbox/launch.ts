/**
 * The hosted sandbox on one machine: a throwaway PostgreSQL cluster (pg-cluster.ts), N `serve` instances
 * on it (each a child process on its own loopback port, with test control and client grading, trusting
 * the balancer's X-Forwarded-For), and Debian's haproxy in front of them on one public port, round-robin,
 * checking each instance's /readyz. `stop()` ends haproxy, the instances and the cluster, and removes
 * every temporary folder. Every wait is bounded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { haproxyConfig } from './haproxy-config.ts';
import { freePort, listeningUrl, waitUntil } from './launch-wait.ts';
import { type PgCluster, startPgCluster } from './pg-cluster.ts';
import { syncWaitOf } from './serve-flags.ts';

/** Where Debian's haproxy package puts the binary. */
export const debianHaproxy = '/usr/sbin/haproxy';

export interface SandboxOptions {
  /** Instances behind the balancer (default 3). */
  readonly instances?: number;
  /** The balancer's address and port (default 127.0.0.1, a free port). */
  readonly host?: string;
  readonly port?: number;
  /** The control token of every instance (default: a random one). */
  readonly controlToken?: string;
  /** More `serve` flags for every instance, e.g. `['--sync-wait-ms', '2000']`. */
  readonly serveArgs?: readonly string[];
  readonly haproxy?: string;
  /** Each line an instance or haproxy prints, with its name. */
  readonly onOutput?: (source: string, line: string) => void;
}

export interface SandboxInstance {
  readonly name: string;
  /** The instance's own URL, not through the balancer. */
  readonly url: string;
  readonly pid: number | undefined;
}

export interface Sandbox {
  /** The balancer's URL: the sandbox's one public address (API at `/api/v1`, test control at `/_control`). */
  readonly url: string;
  readonly controlToken: string;
  /** The database every instance shares (a loopback `postgres://` URL without a password). */
  readonly databaseUrl: string;
  readonly instances: readonly SandboxInstance[];
  /** Sends `signal` to one instance (default SIGKILL): the balancer stops sending to it once /readyz fails. */
  kill(name: string, signal?: NodeJS.Signals): void;
  /** Stops haproxy, the instances and the cluster, and removes the temporary folders. */
  stop(): Promise<void>;
}

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const startMs = 60_000;

/** Starts the sandbox; on any failure, stops what had started and throws one clear line. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const count = options.instances ?? 3;
  if (!Number.isInteger(count) || count < 1 || count > 32) throw new Error('sandbox: 1 to 32 instances');
  const haproxyBin = findHaproxy(options.haproxy);
  const host = options.host ?? '127.0.0.1';
  const controlToken = options.controlToken ?? randomBytes(18).toString('base64url');
  const dir = mkdtempSync(join(tmpdir(), 'tryon-sandbox-'));
  const children: ChildProcess[] = [];
  let cluster: PgCluster | undefined;
  const stop = async () => {
    await stopChildren(children);
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    cluster = await startPgCluster({ settings: [`max_connections=${Math.max(100, 40 * count)}`] });
    const port = options.port || (await freePort(host));
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const start = (i: number) =>
      startInstance(`i${i + 1}`, { dir, controlToken, publicUrl: url, cluster: cluster!, options, children });
    // The first instance runs the migrations alone; the others find the schema in place.
    const first = await start(0);
    const rest = await Promise.all(Array.from({ length: count - 1 }, (_, i) => start(i + 1)));
    const instances = [first, ...rest];
    const syncWait = syncWaitOf(options.serveArgs ?? []);
    const config = haproxyConfig({
      bindHost: host,
      bindPort: port,
      instances: instances.map((i) => ({ name: i.name, host: '127.0.0.1', port: Number(new URL(i.url).port) })),
      // The balancer holds a sync as long as the instances do, whatever `--sync-wait-ms` they were given.
      ...(syncWait !== undefined && { syncWaitMs: syncWait }),
    });
    const configPath = join(dir, 'haproxy.cfg');
    writeFileSync(configPath, config);
    children.push(watch('haproxy', spawn(haproxyBin, ['-db', '-f', configPath], { stdio: 'pipe' }), options));
    await waitUntil(startMs, `haproxy did not answer on ${url}/readyz`, async () => (await status(url)) === 200);
    const byName = new Map(instances.map((i) => [i.name, i]));
    return {
      url,
      controlToken,
      databaseUrl: cluster.url,
      instances,
      kill(name, signal = 'SIGKILL') {
        byName.get(name)?.child.kill(signal);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface InstanceContext {
  readonly dir: string;
  readonly controlToken: string;
  readonly publicUrl: string;
  readonly cluster: PgCluster;
  readonly options: SandboxOptions;
  readonly children: ChildProcess[];
}

/** Starts one `serve` instance on a free loopback port; resolves once it listens. */
async function startInstance(name: string, ctx: InstanceContext): Promise<SandboxInstance & { child: ChildProcess }> {
  const args = [
    ...['serve', '--db', ctx.cluster.url, '--host', '127.0.0.1', '--port', '0', '--instance', name],
    ...['--public-url', ctx.publicUrl, '--trust-proxy', '127.0.0.1', '--grade-clients', join(ctx.dir, name)],
    // On SIGTERM, not ready for 2.5 s first: the balancer (2 failed checks, 1 s apart) stops sending here.
    ...['--drain-ms', '2500'],
    ...(ctx.options.serveArgs ?? []),
  ];
  // The token goes by the environment, not the command line other users of the machine can read.
  const env = { ...process.env, TRYON_CONTROL_TOKEN: ctx.controlToken };
  const child = watch(name, spawn(process.execPath, [bin, ...args], { stdio: 'pipe', env }), ctx.options);
  ctx.children.push(child);
  const url = await listeningUrl(child, `sandbox: instance ${name}`, startMs);
  return { name, url, pid: child.pid, child };
}

/** Passes a child's output on, line by line, with its name. */
function watch(name: string, child: ChildProcess, options: SandboxOptions): ChildProcess {
  const onOutput = options.onOutput;
  if (onOutput) {
    createInterface({ input: child.stderr! }).on('line', (line) => onOutput(name, line));
    if (name === 'haproxy') createInterface({ input: child.stdout! }).on('line', (line) => onOutput(name, line));
  } else {
    child.stderr?.resume();
    if (name === 'haproxy') child.stdout?.resume();
  }
  child.on('error', () => {});
  return child;
}

/** SIGTERM to each child still running (the balancer first), SIGKILL after 15 s. */
async function stopChildren(children: readonly ChildProcess[]): Promise<void> {
  const running = [...children].reverse().filter((c) => c.exitCode === null && c.signalCode === null);
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

async function status(url: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return undefined;
  }
}

/** The haproxy binary: `path`, else Debian's; one clear line when it is missing. */
export function findHaproxy(path = debianHaproxy): string {
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    throw new Error(`sandbox: haproxy not found at ${path}; install Debian's haproxy (apt-get install haproxy)`);
  }
}
