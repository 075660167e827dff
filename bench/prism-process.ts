/**
 * Stoplight Prism's mock of our openapi.yaml as a child process (`prism mock -h 127.0.0.1 -p <port>
 * openapi.yaml`): a stateless foreign target for the benchmarks and for the acceptance run of the
 * suite against a target that no one here wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { request } from 'undici';
import { repoRoot, sleep } from './common.ts';

const require = createRequire(import.meta.url);
export const prismPackage = require.resolve('@stoplight/prism-cli/package.json');
const prismBin = join(prismPackage, '..', 'dist', 'index.js');
// Prism checks only the scheme and shape of the bearer token; the reference server needs a real key.
export const prismKey = `vto_live_${'b'.repeat(44)}`;

/** Starts Prism (bounded: 60 s to answer); its stdout and stderr go to `logPath`. */
export async function startPrism(
  port: number,
  logPath: string,
  silent: boolean,
): Promise<{ child: ChildProcess; startupMs: number }> {
  const fd = openSync(logPath, 'w');
  const args = [
    prismBin,
    'mock',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    ...(silent ? ['-v', 'silent'] : []),
    'openapi.yaml',
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const deadline = started + 60_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}; see ${logPath}`);
    try {
      const res = await request(`http://127.0.0.1:${port}/account`, {
        headers: { authorization: `Bearer ${prismKey}` },
        headersTimeout: 2_000,
        bodyTimeout: 2_000,
      });
      await res.body.dump();
      if (res.statusCode === 200) return { child, startupMs: Math.round(performance.now() - started) };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`prism did not answer within 60 s; see ${logPath}`);
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
