/**
 * The proxy's goals of issue 29, item 6: what each is, and its measured figure from the proxy
 * benchmark (proxy-bench.ts), for bench/goals.ts to judge like the others.
 */
import type { ProxyBenchResult } from './proxy-bench.ts';
import type { Spread } from './spread.ts';

export type ProxyGoalId = 'proxy-added-latency' | 'proxy-vs-bare' | 'proxy-memory';

interface GoalBase {
  readonly id: ProxyGoalId;
  readonly what: string;
  readonly comparator: '>=' | '<=';
  readonly target: number;
  readonly unit: '×' | 'MiB' | 'ms';
}

type Measured = { readonly measured?: Spread; readonly note: string };

/** Each proxy goal with its figure, or why it has none. */
export function proxyGoalInputs(proxy: ProxyBenchResult | { error: string } | undefined): [GoalBase, Measured][] {
  const failed = (): Measured => ({
    note:
      proxy === undefined
        ? 'the proxy benchmark did not run'
        : `the proxy benchmark failed: ${'error' in proxy ? proxy.error : ''}`,
  });
  const ok = proxy !== undefined && !('error' in proxy) ? proxy : undefined;
  const figure = (
    pick: (p: ProxyBenchResult) => Spread | undefined,
    note: (p: ProxyBenchResult) => string,
  ): Measured => {
    if (!ok) return failed();
    const measured = pick(ok);
    return measured ? { measured, note: note(ok) } : { note: 'no figure in this run' };
  };
  return [
    [
      {
        id: 'proxy-added-latency',
        what: 'Latency the judging proxy adds per exchange, p50 (GET /tryons/{id}, one connection)',
        comparator: '<=',
        target: 1,
        unit: 'ms',
      },
      figure(
        (p) => p.latency.addedP50Ms,
        (p) =>
          `proxied p50 minus direct p50 per round, ${p.latency.rounds} rounds of ${p.latency.requestsPerRound} requests each way, ` +
          `request by request in turn; p99 added ${p.latency.addedP99Ms?.median ?? '–'} ms (${p.proxy})`,
      ),
    ],
    [
      {
        id: 'proxy-vs-bare',
        what: 'GET /tryons/{id} at 10 connections, judging proxy ÷ bare @fastify/reply-from proxy',
        comparator: '>=',
        target: 0.8,
        unit: '×',
      },
      figure(
        (p) => p.throughput.ratio,
        (p) =>
          `req/s ratio per round, ${p.throughput.perRound.length} rounds of ${p.throughput.durationSeconds} s in rotating order` +
          (p.throughput.cpuRatio
            ? `; by proxy CPU per response the same pair reads ${p.throughput.cpuRatio.median.toFixed(2)}×`
            : '') +
          (p.throughput.tapsRatio
            ? `; without its judge and grader it reads ${p.throughput.tapsRatio.median.toFixed(2)}× by req/s`
            : ''),
      ),
    ],
    [
      {
        id: 'proxy-memory',
        what: 'Judging proxy with 1,000 client connections in flight, peak RSS',
        comparator: '<=',
        target: 150,
        unit: 'MiB',
      },
      figure(
        (p) => p.memory.rssPeakMiB,
        (p) =>
          `peak RSS of the proxy process, ${p.memory.rssPeakMiB?.n ?? 0} of ${p.memory.runs.length} runs with all ` +
          `${p.memory.connections} connections (from 4 loopback addresses) answered 200, each exchange held ` +
          `${p.memory.holdMs / 1000} s by the upstream`,
      ),
    ],
  ];
}
