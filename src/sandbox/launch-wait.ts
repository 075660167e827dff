/** Small bounded waits of the sandbox launcher: a free port, polling until something holds, a child's URL. */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';

/** A port free on `host` right now. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Polls `check` every 200 ms until it is true; throws `sandbox: <what>` after `timeoutMs`. */
export async function waitUntil(timeoutMs: number, what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`sandbox: ${what} within ${Math.round(timeoutMs / 1000)} s`);
}

/**
 * The base URL a `serve` child prints once it listens (`API base URL http://127.0.0.1:N/api/v1`), without
 * `/api/v1`; rejects if it exits first or prints none within `timeoutMs`.
 */
export function listeningUrl(child: ChildProcess, what: string, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const found = /API base URL\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(line);
      if (!found) return;
      clearTimeout(timer);
      resolve(found[1]!);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before it listened`));
    });
  });
}
