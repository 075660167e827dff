/** Small bounded waits of the sandbox launcher: a free port, and polling until something holds. */
import { createServer } from 'node:net';

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
