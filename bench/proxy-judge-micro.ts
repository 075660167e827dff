/**
 * A quick in-process measure of what judging and grading cost per exchange: N exchanges of
 * GET /tryons/{id} (as the proxy bench sends them) made into TrafficExchanges and fed to the passive
 * judge and the client grader, reporting CPU and garbage-collection time per exchange.
 * Run: node bench/proxy-judge-micro.ts [exchanges]
 */
import { createHash } from 'node:crypto';
import { PerformanceObserver } from 'node:perf_hooks';
import { toTraffic, type ProxiedExchange } from '../src/proxy/capture.ts';
import { TrafficJudgement } from '../src/traffic/traffic-judgement.ts';

const count = Number(process.argv[2] ?? 200_000);
const id = 'tr_0123456789abcdef';
const answer = JSON.stringify({
  id,
  status: 'success',
  resultUrl: `http://127.0.0.1:8787/i/${id}.png`,
  createdAt: '2026-11-27T10:00:00.000Z',
  pollUrl: `/api/v1/tryons/${id}`,
});

/** One exchange as the proxy's capture hands it over. */
function exchange(seq: number, at: number): ProxiedExchange {
  return {
    seq,
    method: 'GET',
    url: `http://127.0.0.1:8787/api/v1/tryons/${id}`,
    requestHeaders: {
      host: '127.0.0.1:9000',
      authorization: 'Bearer sk_test_bench_0123456789',
      connection: 'keep-alive',
    },
    requestBody: { bytes: Buffer.alloc(0), total: 0, partial: false },
    answer: {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(answer.length),
        'x-request-id': `req_${seq}`,
        date: new Date(at).toUTCString(),
      },
      at: at + 1,
    },
    responseBody: { bytes: Buffer.from(answer), total: answer.length, partial: false },
    client: '127.0.0.1',
    startedAt: at,
    endedAt: at + 1,
    dropped: false,
  };
}

let gcMs = 0;
let gcCount = 0;
const gcKinds = new Map<number, number>();
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMs += e.duration;
    gcCount += 1;
    const kind = (e as { detail?: { kind?: number } }).detail?.kind ?? 0;
    gcKinds.set(kind, (gcKinds.get(kind) ?? 0) + 1);
  }
}).observe({ entryTypes: ['gc'] });

const judgement = new TrafficJudgement({ clock: { now: () => Date.now() } });
const t0 = 1_764_000_000_000;
const warm = Math.min(20_000, count);
for (let i = 0; i < warm; i++) judgement.observe(toTraffic(exchange(i, t0 + i)));
gcMs = 0;
gcCount = 0;
gcKinds.clear();
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
for (let i = 0; i < count; i++) judgement.observe(toTraffic(exchange(warm + i, t0 + warm + i)));
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - wall0;
await new Promise((resolve) => setTimeout(resolve, 50));
const perUs = (ms: number) => ((ms * 1000) / count).toFixed(2);
console.log(
  `${count} exchanges: CPU ${perUs((cpu.user + cpu.system) / 1000)} us each, wall ${perUs(wall)} us, ` +
    `GC ${perUs(gcMs)} us each (${gcCount} GCs: ${[...gcKinds].map(([k, n]) => `kind ${k}: ${n}`).join(', ')})`,
);
const report = judgement.report();
const judged = report.requirements.filter((r) => r.verdict !== 'not-observable').length;
const digest = createHash('sha256')
  .update(JSON.stringify([report.requirements, judgement.grade().callers]))
  .digest('hex');
console.log(`verdicts: ${judged} judged, report digest ${digest.slice(0, 16)}`);
