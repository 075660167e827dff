/**
 * The proxy for the hostile run, as its own process: the `proxy` command's pieces (the live judge,
 * the client grader, the proxy) with deadlines short enough for thousands of hostile exchanges.
 * Usage: tsx tests/hostile/proxy-child.ts UPSTREAM TOKEN; prints `Listening <url>`.
 */
import { liveJudgement } from '../../src/proxy/live-judgement.ts';
import { createProxy } from '../../src/proxy/proxy-app.ts';

const [upstream = '', token = ''] = process.argv.slice(2);
const live = liveJudgement({ upstream });
const proxy = await createProxy({
  upstream,
  token,
  // PROXY_FUZZ_OBSERVERS=none: no judge and no grader, to tell their memory from the proxy's.
  observers: process.env.PROXY_FUZZ_OBSERVERS === 'none' ? [] : live.observers,
  reports: live.reports,
  warn: (line) => process.stderr.write(`${line}\n`),
  limits: {
    headersMs: 2_000,
    requestMs: 5_000,
    upstreamHeadersMs: 3_000,
    upstreamBodyIdleMs: 2_000,
    exchangeMs: 8_000,
    connectionsPerClient: 1_000,
  },
});
// SIGUSR2: collect garbage (under --expose-gc) and say the heap in use, to tell a leak from a high-water mark.
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  process.stdout.write(`Memory heapUsed=${heapUsed} rss=${rss}\n`);
});
const url = await proxy.listen('127.0.0.1', 0);
process.stdout.write(`Listening ${url}\n`);
process.once('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
