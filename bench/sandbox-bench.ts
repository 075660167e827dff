/**
 * Benchmark 6: the hosted sandbox's shape (issue 30). Side by side in one run, with the same code and
 * flags: one PostgreSQL-backed `serve` instance against one SQLite instance, and one instance against
 * three on one PostgreSQL database behind haproxy (as `npm run sandbox` configures it). Each pair is
 * measured on GET /tryons/{id} and on real starts (autocannon, rounds interleaved in alternating order,
 * the ratio taken round by round), and on N held sync requests (each instance's RSS while all are held).
 * Without Debian's postgresql or haproxy the result says so, and the rest of the bench runs on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { log, serverCode } from './common.ts';
import { openFilesLimit } from './held-sync.ts';
import { cpuMicros, waitQuiet } from './quiet.ts';
import {
  type Instance,
  missingTools,
  startBalancer,
  startCluster,
  startInstance,
  type Balancer,
} from './sandbox-processes.ts';
import {
  type HeldRun,
  type HeldVia,
  type LoadName,
  type LoadRun,
  type Prepared,
  prepare,
  runHeld,
  runLoad,
} from './sandbox-load.ts';
import { pairedRatios, spread, type Spread } from './spread.ts';

export interface SandboxBenchOptions {
  readonly rounds: number;
  readonly seconds: number;
  readonly connections: number;
  readonly heldRequests: number;
  /** The parts to run (default both): a part not run is taken from the committed report by sandbox-only.ts. */
  readonly parts?: readonly ('single' | 'balanced')[];
}

/** One target's runs of one load, and their spread. */
export interface TargetLoad {
  readonly target: string;
  readonly runs: readonly (LoadRun & { readonly cpuUsPerRequest?: number })[];
  readonly reqPerSec?: Spread;
  readonly p50Ms?: Spread;
}

/** A load on two targets side by side: `a` ÷ `b` per round (rounds with an unexpected answer left out). */
export interface LoadPair {
  readonly load: LoadName;
  readonly connections: number;
  readonly a: TargetLoad;
  readonly b: TargetLoad;
  readonly perRound: readonly number[];
  readonly ratio?: Spread;
}

export interface PairResult {
  /** What `a` and `b` are. */
  readonly a: string;
  readonly b: string;
  readonly loads: readonly LoadPair[];
  readonly heldA: HeldRun | { readonly error: string };
  readonly heldB: HeldRun | { readonly error: string };
}

export type SandboxBenchResult =
  | {
      readonly ran: true;
      readonly startedAt: string;
      readonly server: string;
      readonly flags: readonly string[];
      readonly options: SandboxBenchOptions;
      /** This process's open-files limit (its children's too): what bounds the connections held at once. */
      readonly openFilesLimit?: { readonly soft: number; readonly hard: number };
      /** a: one PostgreSQL instance, b: one SQLite instance (each reached directly). */
      readonly single?: PairResult;
      /** a: three instances, b: one instance, each group on its own PostgreSQL database behind its own haproxy. */
      readonly balanced?: PairResult;
    }
  | { readonly ran: false; readonly startedAt: string; readonly note: string };

/**
 * Every instance's flags, as a provider would set them for this load: behind the balancer, trust its
 * X-Forwarded-For (else every client is the balancer's one address); the one account that holds every
 * sync may have them all in flight (its cap, 256 by default, is raised as the spec's Limits allow "by
 * request to the provider"); starts are held off by a slow-generation person (10 minutes), and a sync is
 * held 10 minutes, not the spec's 55 s, so that the first is still held when the last of a ramp of several
 * minutes arrives. The balancer's timeouts follow that wait, as `npm run sandbox` sets them.
 */
const syncWaitMs = 600_000;
const flags = [
  ...['--generation-latency-ms', '0', '--slow-generation-ms', '600000', '--sync-wait-ms', String(syncWaitMs)],
  ...['--max-in-flight-per-account', '20000', '--trust-proxy', '127.0.0.1'],
];

interface Side {
  readonly name: string;
  readonly base: string;
  readonly instances: readonly Instance[];
  /** How its held syncs travel: HTTP/1.1 to an instance, h2c to the balancer (sandbox-h2c.ts says why). */
  readonly via: HeldVia;
}

/** Runs the benchmark; never throws for a missing tool (the result says what is missing). */
export async function runSandboxBench(options: SandboxBenchOptions): Promise<SandboxBenchResult> {
  const startedAt = new Date().toISOString();
  const missing = missingTools();
  if (missing.length > 0) {
    const note = `not measured: this machine lacks ${missing.join(' and ')}`;
    log(`sandbox: ${note}`);
    return { ran: false, startedAt, note };
  }
  const dir = mkdtempSync(join(tmpdir(), 'tryon-bench-sandbox-'));
  const cluster = await startCluster();
  const stops: (() => Promise<void>)[] = [];
  const started = async (name: string, db: string) => {
    const instance = await startInstance(name, db, flags);
    stops.push(instance.stop);
    return instance;
  };
  const balanced = (b: Balancer) => {
    stops.push(b.stop);
    return b;
  };
  const parts = options.parts ?? ['single', 'balanced'];
  const limit = openFilesLimit();
  try {
    const single = parts.includes('single') ? await singlePart(started, cluster, dir, options) : undefined;
    await stopAll(stops);
    const pair = parts.includes('balanced') ? await balancedPart(started, balanced, cluster, dir, options) : undefined;
    return {
      ran: true,
      startedAt,
      server: serverCode().description,
      flags,
      options,
      ...(limit && { openFilesLimit: limit }),
      ...(single && { single }),
      ...(pair && { balanced: pair }),
    };
  } finally {
    await stopAll(stops);
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Starter = (name: string, db: string) => Promise<Instance>;
type Cluster = Awaited<ReturnType<typeof startCluster>>;

async function singlePart(started: Starter, cluster: Cluster, dir: string, options: SandboxBenchOptions) {
  log('sandbox: one PostgreSQL instance against one SQLite instance');
  const pg = await started('pg', await cluster.createDatabase('single_pg'));
  const lite = await started('sqlite', join(dir, 'single.db'));
  return comparePair(
    { name: 'PostgreSQL', base: pg.url, instances: [pg], via: 'http1' },
    { name: 'SQLite', base: lite.url, instances: [lite], via: 'http1' },
    options,
  );
}

async function balancedPart(
  started: Starter,
  balanced: (b: Balancer) => Balancer,
  cluster: Cluster,
  dir: string,
  options: SandboxBenchOptions,
) {
  log('sandbox: three instances against one, behind haproxy');
  const one = [await started('one1', await cluster.createDatabase('one'))];
  const threeDb = await cluster.createDatabase('three');
  const three = [await started('three1', threeDb)];
  three.push(...(await Promise.all(['three2', 'three3'].map((n) => started(n, threeDb)))));
  const oneLb = balanced(await startBalancer(dir, one, syncWaitMs));
  const threeLb = balanced(await startBalancer(dir, three, syncWaitMs));
  return comparePair(
    { name: '3 instances', base: threeLb.url, instances: three, via: 'h2c' },
    { name: '1 instance', base: oneLb.url, instances: one, via: 'h2c' },
    options,
  );
}

async function stopAll(stops: (() => Promise<void>)[]): Promise<void> {
  await Promise.allSettled(
    stops
      .splice(0)
      .reverse()
      .map((stop) => stop()),
  );
}

/** Held syncs first (on instances that have done nothing else yet), then the interleaved load rounds. */
async function comparePair(a: Side, b: Side, options: SandboxBenchOptions): Promise<PairResult> {
  const [pa, pb] = [await prepare(a.base, true), await prepare(b.base, true)];
  const held = async (side: Side, prepared: Prepared) => {
    try {
      const run = await runHeld(prepared, options.heldRequests, side.instances, side.via);
      log(
        `sandbox: ${side.name}: ${run.started} of ${run.requests} held, RSS ${run.instances.map((i) => i.rssHeldMiB).join(', ')} MiB`,
      );
      return run;
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
  const heldB = await held(b, pb);
  const heldA = await held(a, pa);
  const pids = [...a.instances, ...b.instances].map((i) => i.pid);
  const loads: LoadPair[] = [];
  for (const load of ['GET /tryons/{id}', 'POST /tryons'] as const) {
    const runsA: TargetLoad['runs'][number][] = [];
    const runsB: TargetLoad['runs'][number][] = [];
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? ([a, b] as const) : ([b, a] as const);
      for (const side of order) {
        await waitQuiet(pids);
        const cpu = () => side.instances.reduce((sum, i) => sum + cpuMicros(i.pid), 0);
        const before = cpu();
        const run = await runLoad(side === a ? pa : pb, load, options.connections, options.seconds);
        const total = Object.values(run.statusCounts).reduce((x, y) => x + y, 0);
        const cpuUs = cpu() - before;
        (side === a ? runsA : runsB).push({
          ...run,
          ...(Number.isFinite(cpuUs) && total > 0 && { cpuUsPerRequest: Math.round((cpuUs / total) * 10) / 10 }),
        });
        log(`sandbox: ${load} ${side.name} round ${round + 1}: ${Math.round(run.reqPerSec)} req/s`);
      }
    }
    const clean = (runs: readonly LoadRun[]) => runs.map((r) => (r.unexpected === 0 ? r.reqPerSec : Number.NaN));
    const perRound = pairedRatios(clean(runsA), clean(runsB)).map((x) => Math.round(x * 1000) / 1000);
    const ratio = spread(perRound, 2);
    loads.push({
      load,
      connections: options.connections,
      a: targetLoad(a.name, runsA),
      b: targetLoad(b.name, runsB),
      perRound,
      ...(ratio && { ratio }),
    });
  }
  return { a: a.name, b: b.name, loads, heldA, heldB };
}

function targetLoad(target: string, runs: TargetLoad['runs']): TargetLoad {
  const reqPerSec = spread(
    runs.map((r) => r.reqPerSec),
    0,
  );
  const p50Ms = spread(
    runs.map((r) => r.p50Ms),
    1,
  );
  return { target, runs, ...(reqPerSec && { reqPerSec }), ...(p50Ms && { p50Ms }) };
}
