/**
 * Shared by the benchmarks: the reference server in a child process (bench/server-child.ts) and its
 * IPC, test-control calls, uploads, a free loopback port, percentiles and small formatting helpers.
 * Every address here is 127.0.0.1; every wait is bounded.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { FormData, request, type Dispatcher } from 'undici';
import type { ServerSettings } from '../src/server/config.ts';
import type { ChildStats, FromChild, ToChild } from './server-child.ts';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const controlToken = 'bench-control-token';

/** Very high limits: the benchmark measures the server, not its rate limiter's 429s. */
export const raisedLimits = {
  startsPerMinute: 10_000_000,
  pollsPerMinute: 10_000_000,
  uploadsPerMinute: 10_000_000,
} as const;

export interface ServerChild {
  readonly url: string;
  readonly pid: number;
  stats(): Promise<ChildStats>;
  resetEld(): Promise<void>;
  profileStart(intervalUs: number): Promise<void>;
  profileStop(path: string): Promise<string>;
  close(): Promise<void>;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Which code the reference server child runs. With BENCH_SERVER_DIST (an absolute path to a fresh
 * `npm run build`, which `npm run bench` makes first) it is the compiled build, as the installed
 * package's `serve` runs it: the child script is transpiled once (TypeScript's transpileModule,
 * types only erased) and run by plain node, so no tsx loader thread (about 30 MiB of RSS) is in the
 * figures. Without it, the sources under tsx, for scripts run by hand against a working tree.
 */
export function serverCode(): { readonly kind: 'dist' | 'source'; readonly description: string } {
  return process.env.BENCH_SERVER_DIST
    ? {
        kind: 'dist',
        description: 'compiled (npm run build, dist/), run by plain node, as the installed package runs it',
      }
    : { kind: 'source', description: 'TypeScript sources under tsx' };
}

const transpiled = new Map<string, string>();

/**
 * How to run the bench's child script `name` (a sibling .ts file that imports nothing of this
 * repository but types): as the reference server runs (serverCode), so the floor and the server
 * start alike, under tsx or transpiled once and run by plain node.
 */
export function childEntry(name: string): { script: string; execArgv: string[] } {
  const source = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  if (serverCode().kind === 'source') return { script: source, execArgv: ['--import', 'tsx'] };
  let script = transpiled.get(name);
  if (!script) {
    const output = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
      fileName: source,
    }).outputText;
    // Under node_modules/.cache, so its package imports (fastify) resolve from the repository.
    const dir = join(repoRoot, 'node_modules', '.cache', 'tryon-bench');
    mkdirSync(dir, { recursive: true });
    script = join(dir, `${name}.mjs`);
    writeFileSync(script, output);
    transpiled.set(name, script);
  }
  return { script, execArgv: [] };
}

/** Starts the reference server in a child process and waits (at most 60 s) until it listens. */
export async function startServerChild(settings: Partial<ServerSettings> = {}): Promise<ServerChild> {
  const { script, execArgv } = childEntry('server-child');
  const child: ChildProcess = fork(script, [], {
    cwd: repoRoot,
    execArgv,
    env: { ...process.env, BENCH_SERVER_OPTIONS: JSON.stringify({ settings, controlToken }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<
    number,
    { resolve: (m: FromChild & { type: 'reply' }) => void; reject: (e: Error) => void }
  >();
  let nextId = 1;
  let exited = false;
  const ready = new Promise<{ url: string; pid: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the reference server child did not start within 60 s')), 60_000);
    child.on('message', (message: FromChild) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve({ url: message.url, pid: message.pid });
      } else {
        pending.get(message.id)?.resolve(message);
        pending.delete(message.id);
      }
    });
    child.once('exit', (code) => {
      exited = true;
      clearTimeout(timer);
      reject(new Error(`the reference server child exited with ${code}`));
      for (const p of pending.values()) p.reject(new Error('the reference server child exited'));
      pending.clear();
    });
  });
  const { url, pid } = await ready;

  const call = (message: DistributiveOmit<ToChild, 'id'>, timeoutMs = 30_000) =>
    new Promise<FromChild & { type: 'reply' }>((resolve, reject) => {
      if (exited) return reject(new Error('the reference server child has exited'));
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`IPC ${message.type} timed out`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (m) => {
          clearTimeout(timer);
          if (m.error) reject(new Error(m.error));
          else resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      child.send({ ...message, id } as ToChild);
    });

  return {
    url,
    pid,
    stats: async () => {
      const reply = await call({ type: 'stats' });
      if (!reply.stats) throw new Error('no stats in the reply');
      return reply.stats;
    },
    resetEld: async () => void (await call({ type: 'eld-reset' })),
    profileStart: async (intervalUs) => void (await call({ type: 'profile-start', intervalUs })),
    profileStop: async (path) => (await call({ type: 'profile-stop', path }, 60_000)).path ?? path,
    close: async () => {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await call({ type: 'close' }, 15_000).catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

/** VmRSS and VmHWM (peak) of a process, in bytes, from /proc (Linux); undefined elsewhere. */
export function procMemory(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

export interface Account {
  readonly accountId: string;
  readonly apiKey: string;
}

async function control<T>(base: string, method: 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
  const res = await request(`${base}/_control${path}`, {
    method,
    headers: {
      authorization: `Bearer ${controlToken}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  const json = (await res.body.json()) as T;
  if (res.statusCode !== 200)
    throw new Error(`test control ${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

/** A new account through test control; with `raise`, very high limits and `credits` credits. */
export async function newAccount(base: string, raise?: { credits: number }): Promise<Account> {
  const account = await control<Account>(base, 'POST', '/accounts');
  if (raise) {
    await control(base, 'PUT', `/accounts/${account.accountId}/limits`, raisedLimits);
    await control(base, 'PUT', `/accounts/${account.accountId}/credits`, { credits: raise.credits });
  }
  return account;
}

/** Uploads one image; returns its id. */
export async function upload(base: string, apiKey: string, bytes: Buffer, name: string): Promise<string> {
  const form = new FormData();
  const type = bytes[0] === 0xff ? 'image/jpeg' : 'image/png';
  form.append('file', new Blob([bytes], { type }), name);
  const res = await request(`${base}/api/v1/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
    body: form,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const json = (await res.body.json()) as { id?: string };
  if (res.statusCode !== 200 || !json.id) throw new Error(`upload: ${res.statusCode} ${JSON.stringify(json)}`);
  return json.id;
}

export interface StartBody {
  readonly personImageId: string;
  readonly garmentImageId: string;
  readonly consent: boolean;
}

/** POST /tryons or /tryons/sync; returns the status, body and the time it took (ms). */
export async function startTryOn(
  base: string,
  apiKey: string,
  key: string,
  body: StartBody,
  options: { sync?: boolean; dispatcher?: Dispatcher; timeoutMs?: number } = {},
): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  const res = await request(`${base}/api/v1/tryons${options.sync ? '/sync' : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    headersTimeout: options.timeoutMs ?? 120_000,
    bodyTimeout: options.timeoutMs ?? 120_000,
    ...(options.dispatcher && { dispatcher: options.dispatcher }),
  });
  const json = (await res.body.json()) as Record<string, unknown>;
  return { status: res.statusCode, body: json, ms: performance.now() - started };
}

/** GET /tryons/{id}, polled every `everyMs` until it is no longer pending (bounded by `timeoutMs`). */
export async function waitFinished(
  base: string,
  apiKey: string,
  id: string,
  everyMs = 100,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const res = await request(`${base}/api/v1/tryons/${id}`, {
      headers: { authorization: `Bearer ${apiKey}` },
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const json = (await res.body.json()) as { status?: string };
    if (json.status !== 'pending') return json.status ?? `HTTP ${res.statusCode}`;
    await sleep(everyMs);
  }
  return 'pending (timed out)';
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Nearest-rank percentile of unsorted numbers (NaN for none). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export const round = (n: number, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : n);
export const mib = (bytes: number) => round(bytes / 1024 / 1024, 1);

/** Counts of each value. */
export function tally(values: readonly (string | number)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[String(v)] = (out[String(v)] ?? 0) + 1;
  return out;
}

/** Logs a progress line to stderr (the report goes to files). */
export function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
