/**
 * The proxy benchmark (issue 29, item 6), side by side in one run: the latency the judging proxy
 * adds per exchange (GET /tryons/{id} on one kept connection, direct and through the proxy, request
 * by request in turn); its requests per second at 10 connections against a bare reply-from proxy
 * (rounds in rotating order, the ratio taken round by round; also the same proxy without its judge and
 * grader, to tell their cost from the forwarding's); and its peak RSS with 1,000 client
 * connections each holding an exchange in flight (from four loopback addresses, 250 each, the
 * proxy's default cap per address being 256). Everything binds to loopback; every loop is bounded.
 */
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { makeGarmentImage, makePersonPhoto } from '../src/fixtures/images.ts';
import {
  log,
  newAccount,
  percentile,
  procMemory,
  repoRoot,
  mib,
  round,
  sleep,
  startServerChild,
  startTryOn,
  tally,
  upload,
  waitFinished,
} from './common.ts';
import {
  proxyCode,
  startBareProxy,
  startHoldingUpstream,
  startJudgingProxy,
  startTapsProxy,
} from './proxy-processes.ts';
import { cpuMicros, waitQuiet } from './quiet.ts';
import { pairedRatios, spread, type Spread } from './spread.ts';

export interface ProxyBenchOptions {
  readonly latencyRounds: number;
  readonly latencyRequests: number;
  readonly throughputRounds: number;
  readonly durationSeconds: number;
  readonly memoryRuns: number;
  readonly memoryConnections: number;
}

export interface ProxyBenchResult {
  /** When this benchmark ran and at which commit (a BENCH_ONLY=proxy run merges it into an older bench.json). */
  readonly startedAt: string;
  readonly commit: string;
  readonly proxy: string;
  readonly endpoint: 'GET /tryons/{id}';
  readonly latency: {
    readonly rounds: number;
    readonly requestsPerRound: number;
    readonly directP50Ms?: Spread;
    readonly directP99Ms?: Spread;
    readonly proxiedP50Ms?: Spread;
    readonly proxiedP99Ms?: Spread;
    /** Proxied minus direct, per round. */
    readonly addedP50Ms?: Spread;
    readonly addedP99Ms?: Spread;
  };
  readonly throughput: {
    readonly connections: number;
    readonly durationSeconds: number;
    readonly judgingReqPerSec?: Spread;
    readonly bareReqPerSec?: Spread;
    /** Judging ÷ bare req/s per round, in round order. */
    readonly perRound: readonly number[];
    readonly ratio?: Spread;
    /** The same proxy with no judge and no grader (taps and traffic records only), and its ratio to bare. */
    readonly tapsReqPerSec?: Spread;
    readonly tapsPerRound?: readonly number[];
    readonly tapsRatio?: Spread;
    /**
     * CPU (user + system, /proc) of each proxy's process per response, µs, and bare ÷ judging per
     * round: the same comparison by CPU, less moved by the shared machine's load than req/s.
     */
    readonly cpuUsPerRequest?: { readonly judging?: Spread; readonly bare?: Spread; readonly taps?: Spread };
    readonly cpuRatio?: Spread;
    readonly statusCounts: Record<string, number>;
    readonly errors: number;
  };
  readonly memory: {
    readonly connections: number;
    readonly holdMs: number;
    readonly runs: ReadonlyArray<{
      readonly answered: Record<string, number>;
      readonly rssStartMiB: number;
      readonly rssPeakMiB: number;
    }>;
    readonly rssPeakMiB?: Spread;
  };
}

/** Runs the proxy benchmark against a reference server child of its own. */
export async function runProxyBench(options: ProxyBenchOptions): Promise<ProxyBenchResult> {
  const startedAt = new Date().toISOString();
  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src/proxy', 'src/cli/proxy.ts'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  const commit = `${git.stdout?.trim() || 'unknown'}${dirty.stdout?.trim() ? ' (src/proxy changed)' : ''}`;
  const reference = await startServerChild();
  const token = 'bench-proxy-token-1234';
  const judging = await startJudgingProxy(reference.url, token);
  const bare = await startBareProxy(reference.url);
  const taps = await startTapsProxy(reference.url);
  try {
    const account = await newAccount(reference.url, { credits: 100 });
    const body = {
      personImageId: await upload(reference.url, account.apiKey, await makePersonPhoto(), 'person.jpg'),
      garmentImageId: await upload(reference.url, account.apiKey, await makeGarmentImage(), 'garment.jpg'),
      consent: true,
    };
    const started = await startTryOn(reference.url, account.apiKey, `bench-proxy-${Date.now()}`, body);
    const tryOnId = String(started.body.id);
    if ((await waitFinished(reference.url, account.apiKey, tryOnId)) !== 'success')
      throw new Error('the benchmark try-on did not succeed');
    const path = `/api/v1/tryons/${tryOnId}`;
    const auth = { authorization: `Bearer ${account.apiKey}` };
    const pids = [reference.pid, judging.pid, bare.pid, taps.pid];
    const latency = await measureLatency(reference.url, judging.url, path, auth, options);
    log(`proxy latency: added p50 ${latency.addedP50Ms?.median} ms, p99 ${latency.addedP99Ms?.median} ms`);
    const throughput = await measureThroughput(
      { judging: judging.url, bare: bare.url, taps: taps.url },
      { judging: judging.pid, bare: bare.pid, taps: taps.pid },
      path,
      auth,
      pids,
      options,
    );
    log(`proxy throughput: ${throughput.ratio?.median}× the bare proxy`);
    const memory = await measureMemory(token, options);
    log(`proxy memory: peak RSS ${memory.rssPeakMiB?.median} MiB at ${options.memoryConnections} connections`);
    return { startedAt, commit, proxy: proxyCode(), endpoint: 'GET /tryons/{id}', latency, throughput, memory };
  } finally {
    await Promise.all([judging.close(), bare.close(), taps.close()]);
    await reference.close();
  }
}

async function measureLatency(
  direct: string,
  proxied: string,
  path: string,
  headers: Record<string, string>,
  options: ProxyBenchOptions,
): Promise<ProxyBenchResult['latency']> {
  const pools = [new Pool(direct, { connections: 1 }), new Pool(proxied, { connections: 1 })];
  const once = async (pool: Pool) => {
    const t = process.hrtime.bigint();
    const res = await pool.request({ method: 'GET', path, headers });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}`);
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  const rounds: Array<{ direct: number[]; proxied: number[] }> = [];
  try {
    for (let i = 0; i < 200; i++) for (const pool of pools) await once(pool);
    for (let r = 0; r < options.latencyRounds; r++) {
      const round = { direct: [] as number[], proxied: [] as number[] };
      for (let i = 0; i < options.latencyRequests; i++) {
        round.direct.push(await once(pools[0] as Pool));
        round.proxied.push(await once(pools[1] as Pool));
      }
      rounds.push(round);
    }
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  const of = (pick: (r: { direct: number[]; proxied: number[] }) => number) => spread(rounds.map(pick), 3);
  const added = (p: number) => (r: { direct: number[]; proxied: number[] }) =>
    percentile(r.proxied, p) - percentile(r.direct, p);
  return {
    rounds: options.latencyRounds,
    requestsPerRound: options.latencyRequests,
    ...opt(
      'directP50Ms',
      of((r) => percentile(r.direct, 50)),
    ),
    ...opt(
      'directP99Ms',
      of((r) => percentile(r.direct, 99)),
    ),
    ...opt(
      'proxiedP50Ms',
      of((r) => percentile(r.proxied, 50)),
    ),
    ...opt(
      'proxiedP99Ms',
      of((r) => percentile(r.proxied, 99)),
    ),
    ...opt('addedP50Ms', of(added(50))),
    ...opt('addedP99Ms', of(added(99))),
  };
}

async function measureThroughput(
  targets: { readonly judging: string; readonly bare: string; readonly taps: string },
  pidsOf: { readonly judging: number; readonly bare: number; readonly taps: number },
  path: string,
  headers: Record<string, string>,
  pids: readonly number[],
  options: ProxyBenchOptions,
): Promise<ProxyBenchResult['throughput']> {
  const connections = 10;
  const run = (base: string) =>
    autocannon({ url: `${base}${path}`, headers, connections, duration: options.durationSeconds, timeout: 10 });
  const names = ['judging', 'bare', 'taps'] as const;
  const figures: Record<(typeof names)[number], number[]> = { judging: [], bare: [], taps: [] };
  const cpu: Record<(typeof names)[number], number[]> = { judging: [], bare: [], taps: [] };
  const statusCounts: Record<string, number> = {};
  let errors = 0;
  // Warm each up, then rounds in rotating order so drift of the shared machine hits all alike.
  for (const name of names) await run(targets[name]);
  for (let r = 0; r < options.throughputRounds; r++) {
    const order = [...names.slice(r % names.length), ...names.slice(0, r % names.length)];
    for (const which of order) {
      await waitQuiet(pids);
      const before = cpuMicros(pidsOf[which]);
      const result = await run(targets[which]);
      const responses = Object.values(result.statusCodeStats ?? {}).reduce((sum, stat) => sum + (stat.count ?? 0), 0);
      cpu[which].push(responses > 0 ? (cpuMicros(pidsOf[which]) - before) / responses : Number.NaN);
      figures[which].push(result.requests.average);
      for (const [code, stat] of Object.entries(result.statusCodeStats ?? {}))
        statusCounts[code] = (statusCounts[code] ?? 0) + (stat.count ?? 0);
      errors += result.errors + result.non2xx;
    }
  }
  const perRound = pairedRatios(figures.judging, figures.bare).map((x) => round(x, 3));
  const tapsPerRound = pairedRatios(figures.taps, figures.bare).map((x) => round(x, 3));
  return {
    connections,
    durationSeconds: options.durationSeconds,
    ...opt('judgingReqPerSec', spread(figures.judging, 0)),
    ...opt('bareReqPerSec', spread(figures.bare, 0)),
    perRound,
    ...opt('ratio', spread(perRound, 2)),
    ...opt('tapsReqPerSec', spread(figures.taps, 0)),
    tapsPerRound,
    ...opt('tapsRatio', spread(tapsPerRound, 2)),
    cpuUsPerRequest: {
      ...opt('judging', spread(cpu.judging, 1)),
      ...opt('bare', spread(cpu.bare, 1)),
      ...opt('taps', spread(cpu.taps, 1)),
    },
    ...opt('cpuRatio', spread(pairedRatios(cpu.bare, cpu.judging), 2)),
    statusCounts,
    errors,
  };
}

async function measureMemory(token: string, options: ProxyBenchOptions): Promise<ProxyBenchResult['memory']> {
  const holdMs = 2_000;
  const upstream = await startHoldingUpstream(holdMs);
  const proxy = await startJudgingProxy(upstream.url, token);
  const runs: Array<ProxyBenchResult['memory']['runs'][number]> = [];
  try {
    const addresses = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];
    const each = Math.ceil(options.memoryConnections / addresses.length);
    for (let r = 0; r < options.memoryRuns; r++) {
      const pools = addresses.map(
        (localAddress) => new Pool(proxy.url, { connections: each, localAddress, pipelining: 1 }),
      );
      const rssStart = procMemory(proxy.pid)?.rss ?? Number.NaN;
      let peak = rssStart;
      const sampler = setInterval(() => {
        peak = Math.max(peak, procMemory(proxy.pid)?.rss ?? 0);
      }, 25);
      const answers = await Promise.all(
        pools.flatMap((pool) =>
          Array.from({ length: each }, async () => {
            try {
              const res = await pool.request({ method: 'GET', path: '/api/v1/tryons/tr_hold', headersTimeout: 60_000 });
              await res.body.arrayBuffer();
              return String(res.statusCode);
            } catch (error) {
              return (error as { code?: string }).code ?? 'error';
            }
          }),
        ),
      );
      clearInterval(sampler);
      await Promise.all(pools.map((p) => p.close()));
      runs.push({ answered: tally(answers), rssStartMiB: mib(rssStart), rssPeakMiB: mib(peak) });
      await sleep(1_000);
    }
  } finally {
    await proxy.close();
    await upstream.close();
  }
  return {
    connections: options.memoryConnections,
    holdMs,
    runs,
    // Only a run where every connection's exchange was answered by the upstream held them all at once.
    ...opt(
      'rssPeakMiB',
      spread(
        runs.filter((r) => r.answered['200'] === options.memoryConnections).map((r) => r.rssPeakMiB),
        1,
      ),
    ),
  };
}

function opt<K extends string>(key: K, value: Spread | undefined): { [P in K]?: Spread } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: Spread };
}
