/**
 * Starts and stops the floor of benchmark 1 (bench/floor-child.ts, a bare fastify server) in a child
 * process, and builds its constant bodies: valid JSON padded to an exact byte size.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { childEntry, repoRoot } from './common.ts';
import type { FloorRoute, FromFloor } from './floor-child.ts';

/**
 * A JSON object of exactly `bytes` bytes (UTF-8): `{"floor":"xxx…"}`, the string as long as it
 * takes; below that object's 12 bytes, `{}` and trailing spaces (still valid JSON). Under 2 bytes throws.
 */
export function paddedJson(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 2) throw new Error(`a JSON object needs at least 2 bytes, not ${bytes}`);
  const empty = '{"floor":""}';
  if (bytes < empty.length) return `{}${' '.repeat(bytes - 2)}`;
  return `{"floor":"${'x'.repeat(bytes - empty.length)}"}`;
}

export interface FloorServer {
  readonly url: string;
  readonly child: ChildProcess;
}

/** Forks the floor with `routes` and waits (at most 60 s) until it listens. */
export function startFloor(routes: readonly FloorRoute[]): Promise<FloorServer> {
  const { script, execArgv } = childEntry('floor-child');
  const child = fork(script, [], {
    cwd: repoRoot,
    execArgv,
    env: { ...process.env, BENCH_FLOOR_ROUTES: JSON.stringify(routes) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the floor server did not start within 60 s'));
    }, 60_000);
    child.once('message', (message: FromFloor) => {
      clearTimeout(timer);
      resolve({ url: message.url, child });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the floor server exited with ${code}`));
    });
  });
}
