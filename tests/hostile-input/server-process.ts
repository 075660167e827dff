/**
 * Runs the reference server as a child process and reads what it costs from /proc (issue 13: the
 * bounds are checked, not assumed): CPU time (utime + stime, /proc/<pid>/stat), resident memory
 * now and at its peak (VmRSS, VmHWM in /proc/<pid>/status; the peak is reset through
 * /proc/<pid>/clear_refs), bytes read by system calls (rchar, /proc/<pid>/io: socket reads count),
 * and open file descriptors (/proc/<pid>/fd).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { request } from 'undici';

export const controlToken = 'hostile-input';

/** One reading of the server's costs. */
export interface Usage {
  /** CPU time, user + system, in milliseconds (10 ms resolution). */
  readonly cpuMs: number;
  readonly rssBytes: number;
  readonly peakRssBytes: number;
  /** Bytes the process passed to read-like system calls (sockets included). */
  readonly readBytes: number;
  readonly openFiles: number;
}

export interface ServerProcess {
  readonly base: string;
  readonly pid: number;
  usage(): Usage;
  /** Resets the peak RSS to the current RSS (so VmHWM then measures one request). */
  resetPeak(): void;
  newAccount(limits?: Record<string, number>): Promise<{ accountId: string; apiKey: string }>;
  stop(): Promise<void>;
}

const ticksPerSecond = 100; // USER_HZ on Linux

/** Starts a server child; `serverDir` points at another checkout's src/server (figures "before"). */
export async function startServerProcess(
  settings: Record<string, unknown> = {},
  serverDir?: string,
): Promise<ServerProcess> {
  const args = [
    '--import',
    'tsx',
    new URL('./server-child.ts', import.meta.url).pathname,
    JSON.stringify(settings),
    ...(serverDir ? [serverDir] : []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`server child exited with ${code}`)));
  });
  const pid = child.pid!;
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await request(`${base}/_control${path}`, {
      method: method as 'POST',
      headers: {
        authorization: `Bearer ${controlToken}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const json = (await res.body.json()) as any;
    if (res.statusCode !== 200) throw new Error(`control ${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    base,
    pid,
    usage: () => readUsage(pid),
    resetPeak: () => writeFileSync(`/proc/${pid}/clear_refs`, '5'),
    async newAccount(limits) {
      const account = (await control('POST', '/accounts')) as { accountId: string; apiKey: string };
      if (limits) await control('PUT', `/accounts/${account.accountId}/limits`, limits);
      return account;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Reads the usage of any process from /proc. */
export function readUsage(pid: number): Usage {
  // Fields after the command name (which may hold spaces) start at field 3; utime is 14, stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return {
    cpuMs: (ticks * 1000) / ticksPerSecond,
    rssBytes: kib('VmRSS'),
    peakRssBytes: kib('VmHWM'),
    readBytes: Number(/^rchar:\s+(\d+)/m.exec(io)?.[1] ?? NaN),
    openFiles: readdirSync(`/proc/${pid}/fd`).length,
  };
}

export const mib = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
