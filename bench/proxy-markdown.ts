/** The proxy benchmark's section of reports/bench/bench.md (proxy-bench.ts). */
import { fmt, fmtSpread } from './markdown-format.ts';
import type { ProxyBenchResult } from './proxy-bench.ts';

/** The section, or nothing for a report without the proxy benchmark. */
export function proxySection(result: ProxyBenchResult | { error: string } | undefined): string[] {
  if (result === undefined) return [];
  const out = ['## 5. The judging proxy (`tryon-conformance proxy`)', ''];
  if ('error' in result) return [...out, `Not measured: ${result.error}`, ''];
  const { latency: l, throughput: t, memory: m } = result;
  out.push(
    `Measured ${result.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} at commit \`${result.commit}\`. The judging proxy, ${result.proxy}, in front of the reference server (a child process), every exchange judged ` +
      'by the passive judge and the client grader. **Added latency**: `GET /tryons/{id}` on one kept connection, ' +
      `straight to the server and through the proxy request by request in turn, ${l.rounds} rounds of ` +
      `${fmt(l.requestsPerRound)} each way; added = proxied − direct per round. **Throughput**: autocannon at ` +
      `${t.connections} connections for ${t.durationSeconds} s against the judging proxy and against a bare ` +
      '`@fastify/reply-from` proxy (the same library as its README shows it: no taps, no checks) and against the ' +
      'judging proxy with no judge and no grader (its taps and traffic records only), rotating which goes first; ' +
      `the ratios per round. **Memory**: ${fmt(m.connections)} client connections, from 127.0.0.1–4 ` +
      `(the proxy's default cap is 256 per address), each with a request the upstream holds ${m.holdMs / 1000} s, ` +
      'all open at once; peak RSS of the proxy process from /proc.',
    '',
    '| Figure | Median (min–max) |',
    '|---|---|',
    `| Direct p50 / p99 ms | ${fmtSpread(l.directP50Ms, 3)} / ${fmtSpread(l.directP99Ms, 3)} |`,
    `| Through the proxy p50 / p99 ms | ${fmtSpread(l.proxiedP50Ms, 3)} / ${fmtSpread(l.proxiedP99Ms, 3)} |`,
    `| Added p50 / p99 ms | ${fmtSpread(l.addedP50Ms, 3)} / ${fmtSpread(l.addedP99Ms, 3)} |`,
    `| Judging proxy req/s | ${fmtSpread(t.judgingReqPerSec)} |`,
    `| Bare reply-from proxy req/s | ${fmtSpread(t.bareReqPerSec)} |`,
    `| Judging ÷ bare, per round | ${fmtSpread(t.ratio, 2, '×')} (rounds: ${t.perRound.map((x) => x.toFixed(2)).join(', ')}) |`,
    `| The same proxy without its judge and grader req/s | ${fmtSpread(t.tapsReqPerSec)} |`,
    `| Without judge and grader ÷ bare, per round | ${fmtSpread(t.tapsRatio, 2, '×')} (rounds: ${(t.tapsPerRound ?? []).map((x) => x.toFixed(2)).join(', ')}) |`,
    `| CPU per response µs: judging / bare / without judge and grader | ${fmtSpread(t.cpuUsPerRequest?.judging)} / ${fmtSpread(t.cpuUsPerRequest?.bare)} / ${fmtSpread(t.cpuUsPerRequest?.taps)} |`,
    `| By CPU per response, judging ÷ bare (bare CPU ÷ judging CPU) | ${fmtSpread(t.cpuRatio, 2, '×')} |`,
    `| Peak RSS at ${fmt(m.connections)} connections MiB | ${fmtSpread(m.rssPeakMiB, 1)} |`,
    '',
    `Answers in the throughput runs: ${Object.entries(t.statusCounts)
      .map(([s, n]) => `${s}: ${fmt(n)}`)
      .join(', ')}; errors and non-2xx: ${fmt(t.errors)}. Memory runs: ${m.runs
      .map(
        (r) =>
          `${r.rssStartMiB} → ${r.rssPeakMiB} MiB (${Object.entries(r.answered)
            .map(([s, n]) => `${s}: ${n}`)
            .join(', ')})`,
      )
      .join('; ')}.`,
    '',
  );
  return out;
}
