/**
 * What the sandbox reads from the `serve` flags it passes on to every instance: the sync wait, so that the
 * balancer holds a request at least as long as an instance does (haproxy-config.ts).
 */
import { parseArgs } from 'node:util';

/** The `--sync-wait-ms` among `serveArgs` (the last one, as `serve` reads it), or undefined when none is given. */
export function syncWaitOf(serveArgs: readonly string[]): number | undefined {
  const { values } = parseArgs({
    args: [...serveArgs],
    options: { 'sync-wait-ms': { type: 'string' } },
    strict: false,
    allowPositionals: true,
  });
  const raw = values['sync-wait-ms'];
  // `serve` refuses anything but a whole number itself; the balancer then keeps its default.
  return typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
}
