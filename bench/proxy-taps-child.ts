/**
 * The judging proxy's own machinery without its judges, for the proxy benchmark: `createProxy` as
 * `tryon-conformance proxy` builds it (taps, capture, the traffic record of every exchange), with no
 * passive judge and no client grader. Compiled from BENCH_SERVER_DIST when set, else the sources.
 * Prints `Listening <url>`. Never started by hand: bench/proxy-processes.ts starts it.
 */
import { pathToFileURL } from 'node:url';

const dist = process.env.BENCH_SERVER_DIST;
const codeBase = dist ? pathToFileURL(`${dist}/`).href : new URL('../src/', import.meta.url).href;
const { createProxy } = (await import(
  new URL(`proxy/proxy-app${dist ? '.js' : '.ts'}`, codeBase).href
)) as typeof import('../src/proxy/proxy-app.ts');

const proxy = await createProxy({ upstream: process.argv[2] ?? '', token: 'bench-taps-token', observers: [] });
const url = await proxy.listen('127.0.0.1', 0);
process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
process.stdout.write(`Listening ${url}\n`);
