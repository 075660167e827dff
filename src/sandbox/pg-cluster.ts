/**
 * A throwaway PostgreSQL cluster for the sandbox and its tests: `initdb` into a fresh temporary
 * folder, `pg_ctl start` listening only on 127.0.0.1 at a free port (and a unix socket in that
 * folder), trust authentication for loopback and the socket only, one database created. `stop()`
 * stops the server and removes the folder. Every wait is bounded.
 *
 * initdb and postgres refuse to run as root: when this process is root, every PostgreSQL command
 * runs as the unprivileged system user `postgres` (Debian's postgresql package creates it; spawn's
 * uid/gid options switch to it) and the temporary folder is chowned to that user.
 */
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** Where Debian puts the PostgreSQL 15 binaries; PATH is searched after it. */
export const debianPgBin = '/usr/lib/postgresql/15/bin';

/** The unprivileged user PostgreSQL runs as when this process is root. */
export const pgSystemUser = 'postgres';

export interface PgClusterOptions {
  /** The database created at start (default `tryon`). */
  readonly database?: string;
  /** Folder of initdb, pg_ctl and createdb (default: debianPgBin, else PATH). */
  readonly binDir?: string;
  /** Bound on each command (initdb, start, stop), in ms. */
  readonly timeoutMs?: number;
  /** Extra server settings, `name=value` each (e.g. `max_connections=300`). */
  readonly settings?: readonly string[];
  /**
   * Commits as a provider's server makes them, flushed to disk (PostgreSQL's defaults), for figures of the
   * shape a provider runs; by default a throwaway cluster skips every flush (fsync and synchronous_commit off).
   */
  readonly durable?: boolean;
}

export interface PgCluster {
  /** A `postgres://` URL of the database created at start. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  /** The temporary folder: data directory, log and unix socket. */
  readonly dir: string;
  /** Creates another database on the cluster; returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** URL of database `name` on this cluster. */
  urlOf(name: string): string;
  /** Stops the server (fast, then immediate) and removes the folder. */
  stop(): Promise<void>;
}

interface RunAs {
  readonly uid: number;
  readonly gid: number;
}

const defaultTimeoutMs = 60_000;
const namePattern = /^[a-z_][a-z0-9_]{0,62}$/;

/** Starts a throwaway cluster; throws one clear line when the binaries or the `postgres` user are missing. */
export async function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  const database = options.database ?? 'tryon';
  if (!namePattern.test(database)) throw new Error(`pg-cluster: bad database name ${JSON.stringify(database)}`);
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const bin = findBinDir(options.binDir);
  const runAs = process.getuid?.() === 0 ? await systemUser(timeoutMs) : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'tryon-pg-'));
  const data = join(dir, 'data');
  const user = 'postgres';
  const exec = (tool: string, args: readonly string[]) => run(join(bin, tool), args, timeoutMs, runAs);
  try {
    if (runAs) chownSync(dir, runAs.uid, runAs.gid);
    await exec('initdb', ['-D', data, '-U', user, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
    // Only the socket and loopback, trusted: the server listens on nothing else either.
    writeFileSync(
      join(data, 'pg_hba.conf'),
      'local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n',
    );
    const port = await startOnFreePort(exec, data, dir, [
      ...(options.durable ? [] : noFlush),
      ...(options.settings ?? []),
    ]);
    // A process that exits without stop() (a failed test run) still takes its cluster down with it.
    const stopAtExit = () => {
      try {
        const stopArgs = ['-D', data, '-m', 'immediate', '-w', '-t', '10', 'stop'];
        execFileSync(join(bin, 'pg_ctl'), stopArgs, { stdio: 'ignore', timeout: 15_000, cwd: '/', ...runAs });
      } catch {
        // Stopped already, or beyond reach: the folder goes either way.
      }
      rmSync(dir, { recursive: true, force: true });
    };
    process.once('exit', stopAtExit);
    const cluster = clusterAt(dir, data, port, user, database, exec, () => process.off('exit', stopAtExit));
    await cluster.createDatabase(database);
    return cluster;
  } catch (error) {
    await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '10', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

type Exec = (tool: string, args: readonly string[]) => Promise<string>;

/** A throwaway cluster's settings unless durable: durability buys nothing there. */
const noFlush = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];

function clusterAt(
  dir: string,
  data: string,
  port: number,
  user: string,
  database: string,
  exec: Exec,
  forgetExitHook: () => void,
): PgCluster {
  const host = '127.0.0.1';
  const urlOf = (name: string) => `postgres://${user}@${host}:${port}/${name}`;
  let stopped: Promise<void> | undefined;
  return {
    url: urlOf(database),
    host,
    port,
    user,
    database,
    dir,
    urlOf,
    async createDatabase(name) {
      if (!namePattern.test(name)) throw new Error(`pg-cluster: bad database name ${JSON.stringify(name)}`);
      await exec('createdb', ['-h', dir, '-p', String(port), '-U', user, name]);
      return urlOf(name);
    },
    stop() {
      stopped ??= (async () => {
        try {
          await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '20', 'stop']);
        } catch {
          await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '10', 'stop']).catch(() => undefined);
        }
        rmSync(dir, { recursive: true, force: true });
        forgetExitHook();
      })();
      return stopped;
    },
  };
}

/** Starts the server on a free loopback port; a port taken meanwhile is retried on another. */
async function startOnFreePort(exec: Exec, data: string, dir: string, settings: readonly string[]): Promise<number> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const serverOptions = [
      '-c listen_addresses=127.0.0.1',
      `-p ${port}`,
      `-k ${dir}`,
      '-c max_connections=200',
      ...settings.map((s) => `-c ${s}`),
    ].join(' ');
    try {
      await exec('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', '-o', serverOptions, 'start']);
      return port;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** The folder holding initdb and pg_ctl: `binDir`, Debian's, or the first on PATH. */
export function findBinDir(binDir?: string): string {
  const candidates = binDir ? [binDir] : [debianPgBin, ...(process.env.PATH ?? '').split(delimiter).filter(Boolean)];
  for (const candidate of candidates) {
    if (['initdb', 'pg_ctl', 'createdb'].every((tool) => isExecutable(join(candidate, tool)))) return candidate;
  }
  throw new Error(
    `pg-cluster: PostgreSQL binaries (initdb, pg_ctl, createdb) not found in ${candidates[0]} or on PATH; ` +
      "install Debian's postgresql package (apt-get install postgresql)",
  );
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function systemUser(timeoutMs: number): Promise<RunAs> {
  try {
    const uid = Number((await run('id', ['-u', pgSystemUser], timeoutMs)).trim());
    const gid = Number((await run('id', ['-g', pgSystemUser], timeoutMs)).trim());
    if (Number.isInteger(uid) && Number.isInteger(gid) && uid > 0) return { uid, gid };
  } catch {
    // Reported below.
  }
  throw new Error(
    `pg-cluster: running as root, and initdb refuses root; no system user ${pgSystemUser} to run it as ` +
      `(Debian's postgresql package creates it; or: useradd --system ${pgSystemUser})`,
  );
}

/** Runs one command, bounded by `timeoutMs`; rejects with its stderr's last lines. */
function run(file: string, args: readonly string[], timeoutMs: number, runAs?: RunAs): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C', TZ: 'UTC' };
    execFile(
      file,
      [...args],
      { timeout: timeoutMs, killSignal: 'SIGKILL', env, cwd: '/', ...runAs, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const detail = `${stderr}`.trim().split('\n').slice(-3).join(' / ') || error.message;
        reject(new Error(`pg-cluster: ${file.split('/').pop()} ${args[args.length - 1]} failed: ${detail}`));
      },
    );
  });
}

/** A port free on 127.0.0.1 right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
