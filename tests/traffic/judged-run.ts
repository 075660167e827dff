/**
 * One conformance run with the passive judge listening: a fresh embedded reference server, optionally
 * a mutant's proxy in front of it (tests/mutants), `tryon-conformance proxy`'s reverse proxy in front
 * of that with a PassiveJudge as its observer, and the whole suite through it (test control too).
 * Gives the run's verdicts, by the report's own rules, and the judge's. Also a direct run, for the
 * same-verdicts check, and the child-process pool the scripts use for `--jobs N`.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import type { TestModule } from 'vitest/node';
import { fixtureFiles } from '../../src/fixtures/export.ts';
import { startFixtureHost } from '../../src/fixtures/fixture-host.ts';
import { createProxy } from '../../src/proxy/proxy-app.ts';
import { createReferenceServer } from '../../src/server/app.ts';
import { withDefaults } from '../../src/server/config.ts';
import { isLoopback } from '../../src/server/domain/image-fetch/address-policy.ts';
import { staticResolver } from '../../src/server/domain/image-fetch/resolver.ts';
import { buildReport, type Verdict } from '../../src/report/model.ts';
import { embeddedSettings, startEmbeddedTarget } from '../../src/run/embedded-target.ts';
import { runSuite } from '../../src/run/run-suite.ts';
import type { SuiteConfig } from '../../src/suite/config.ts';
import { PassiveJudge } from '../../src/traffic/passive-judge.ts';
import { toNdjsonLine } from '../../src/traffic/recording.ts';
import type { TrafficExchange } from '../../src/traffic/traffic-exchange.ts';
import { startMutatingProxy, type ProxyHooks } from '../mutants/mutating-proxy.ts';

export type Verdicts = Readonly<Record<string, Verdict>>;

export interface JudgedRun {
  /** The run's verdict of every requirement (through the proxy, or direct). */
  readonly run: Verdicts;
  /** The passive judge's verdict of every requirement (absent for a direct run). */
  readonly passive?: Verdicts;
  readonly exchanges?: number;
  readonly notKept?: number;
  /** The passive failures with the first line of their first failure, for the notes. */
  readonly passiveFailures?: Readonly<Record<string, string>>;
  readonly tests: number;
  readonly seconds: number;
}

export interface JudgedRunOptions {
  readonly seed: number;
  readonly reporters: string[];
  readonly grep?: string | undefined;
  /** A mutant's hooks, played by the mutating proxy behind ours. */
  readonly hooks?: ProxyHooks;
  /** Run the suite straight against the server: no proxy, no judge. */
  readonly direct?: boolean;
}

function verdictsOf(modules: readonly TestModule[], seed: number, baseUrl: string): Verdicts {
  const report = buildReport(modules, {
    tool: { name: 'tryon-conformance', version: '0' },
    target: { baseUrl, embedded: true },
    openapiSha256: '',
    seed,
    profile: 'quick',
    capabilities: {},
    startedAt: new Date(),
    durationMs: 0,
  });
  return Object.fromEntries(report.requirements.map((r) => [r.id, r.verdict]));
}

/**
 * A free loopback port for the proxy the reference server names in its resultUrls, below the
 * kernel's ephemeral range (so no outgoing connection takes it between this check and the listen).
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return (server.address() as AddressInfo | null)?.port ?? port;
    }
  }
}

/** A direct run: the embedded reference server, the suite straight at it. */
async function directRun(o: JudgedRunOptions, started: number): Promise<JudgedRun> {
  const embedded = await startEmbeddedTarget(
    { creditBudget: 10_000, seed: o.seed, profile: 'quick' },
    embeddedSettings,
  );
  try {
    const modules = await runSuite(embedded.config, o.grep, o.reporters);
    const tests = modules.reduce((n, m) => n + [...m.children.allTests()].length, 0);
    const origin = new URL(embedded.config.baseUrl).origin;
    return { run: verdictsOf(modules, o.seed, origin), tests, seconds: (performance.now() - started) / 1000 };
  } finally {
    await embedded.close();
  }
}

/**
 * One run as `o` says; every server and proxy it started is closed before it returns. Through the
 * proxy, the reference server is started as the embedded one is, but names the proxy in its resultUrls
 * (`publicUrl`): the proxy alters no byte, so a result image is fetched through it as the client sees it.
 */
export async function judgedRun(o: JudgedRunOptions): Promise<JudgedRun> {
  const started = performance.now();
  if (o.direct) return directRun(o, started);
  const closers: Array<() => Promise<void>> = [];
  try {
    const fixtures = await startFixtureHost({ files: await fixtureFiles() });
    closers.push(() => fixtures.close());
    const port = await freePort();
    const proxyUrl = `http://127.0.0.1:${port}`;
    const token = randomBytes(16).toString('base64url');
    const server = await createReferenceServer({
      dbPath: ':memory:',
      publicUrl: proxyUrl,
      settings: withDefaults(embeddedSettings),
      controlToken: token,
      resolver: staticResolver({}),
      connectGuard: isLoopback,
      trustedOrigin: { origin: fixtures.origin, ca: fixtures.ca },
    });
    const origin = await server.listen('127.0.0.1', 0);
    closers.unshift(() => server.close());
    let upstream = origin;
    if (o.hooks) {
      const mutating = await startMutatingProxy(origin, o.hooks, {
        controlToken: token,
        fixtureBaseUrl: `${fixtures.origin}/f`,
        fixtureCa: fixtures.ca,
      });
      closers.unshift(() => mutating.close());
      upstream = mutating.url;
    }
    const judge = new PassiveJudge();
    // TRYON_TRAFFIC_RECORD=FILE keeps the traffic as NDJSON, to judge it again offline (judge FILE).
    const record = process.env.TRYON_TRAFFIC_RECORD;
    const recorder = record && { observe: (te: TrafficExchange) => appendFileSync(record, `${toNdjsonLine(te)}\n`) };
    const observers = recorder ? [judge, recorder] : [judge];
    const proxy = await createProxy({ upstream, observers, token: randomBytes(16).toString('hex') });
    const url = await proxy.listen('127.0.0.1', port);
    closers.unshift(() => proxy.close());
    const config: SuiteConfig = {
      creditBudget: 10_000,
      seed: o.seed,
      profile: 'quick',
      baseUrl: `${url}/api/v1`,
      control: { url: `${url}/_control`, token },
      fixtureBaseUrl: `${fixtures.origin}/f`,
      fixtureBehaviours: true,
    };
    const modules = await runSuite(config, o.grep, o.reporters);
    const report = judge.report({ target: url, final: true });
    const failures = report.requirements
      .filter((r) => r.verdict === 'fail')
      .map((r) => [r.id, (r.failures[0]?.message ?? '').split('\n')[0]?.slice(0, 200) ?? ''] as const);
    return {
      run: verdictsOf(modules, o.seed, url),
      passive: Object.fromEntries(report.requirements.map((r) => [r.id, r.verdict])),
      exchanges: report.traffic?.exchanges ?? 0,
      notKept: report.traffic?.notKept ?? 0,
      passiveFailures: Object.fromEntries(failures),
      tests: modules.reduce((n, m) => n + [...m.children.allTests()].length, 0),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    for (const close of closers) await close().catch(() => undefined);
  }
}

/** A verdict that judged the requirement: pass or fail (every other one judged nothing). */
export const judged = (v: Verdict | undefined): v is 'pass' | 'fail' => v === 'pass' || v === 'fail';

/** The tag a worker prints before its result line. */
export const resultTag = '@@judged-run-result ';

/** Runs `script` with `args` in a child process (this process's loader flags) and reads its result line. */
export function inChild(script: string, args: readonly string[], label: string): Promise<JudgedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith(resultTag));
      if (!line) return reject(new Error(`the worker for ${label} exited ${code} without a result`));
      resolve(JSON.parse(line.slice(resultTag.length)) as JudgedRun);
    });
  });
}
