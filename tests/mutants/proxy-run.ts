/**
 * One conformance run through a proxy, shared by `npm run mutants` (broken servers the suite must
 * fail) and `npm run variants` (correct servers the suite must pass): a fresh embedded reference
 * server, the mutating proxy in front of it with the given hooks, the whole suite through the
 * proxy, and what failed, by the report's own per-requirement verdict rules. Also the child-process
 * pool both runners use for `--jobs N`.
 */
import { spawn } from 'node:child_process';
import type { TestCase, TestModule } from 'vitest/node';
import { runSuite } from '../../src/run/run-suite.ts';
import { outcomeOf } from '../../src/report/verdict.ts';
import type { ServerSettings } from '../../src/server/config.ts';
import type { RequirementId } from '../../src/contract/requirements.ts';
import type { SuiteConfig } from '../../src/suite/config.ts';
import { embeddedSettings, startEmbeddedTarget } from '../../src/run/embedded-target.ts';
import { startMutatingProxy, type ProxyHooks } from './mutating-proxy.ts';

/** One failed test, with what it said per failed requirement (from `t.must` and the checks). */
export interface FailedTest {
  readonly test: string;
  readonly requirements: readonly RequirementId[];
  /** The assertion or check messages, first lines only. */
  readonly messages: readonly string[];
}

export interface RunResult {
  readonly failed: Set<RequirementId>;
  /** `<test> — <first line of its first error>`. */
  readonly failedTests: string[];
  readonly failures: readonly FailedTest[];
  readonly seconds: number;
  readonly faults: readonly string[];
  readonly tests: number;
  /** Exchanges the hooks changed or answered themselves (a variant or mutant that changed none proved nothing). */
  readonly changed: number;
  /** Tests that ended inconclusive (no verdict), with their reasons. */
  readonly inconclusive: readonly string[];
}

/** Requirements the run failed, by the report's own verdict rules (per requirement, not per test). */
export function failedRequirements(modules: readonly TestModule[]): Set<RequirementId> {
  const failed = new Set<RequirementId>();
  for (const { failed: ids } of testVerdicts(modules)) for (const id of ids) failed.add(id);
  return failed;
}

interface TestVerdict {
  readonly test: string;
  readonly failed: RequirementId[];
  readonly meta: ReturnType<TestCase['meta']>;
  readonly errors: readonly { message?: string }[];
}

function testVerdicts(modules: readonly TestModule[]): TestVerdict[] {
  const out: TestVerdict[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const meta = test.meta();
      const result = test.result();
      const state = result.state === 'passed' || result.state === 'failed' ? result.state : ('skipped' as const);
      const ran = { entry: { requirements: meta.requirements ?? [], state }, meta, errors: result.errors ?? [] };
      const named = new Set<RequirementId>([
        ...(meta.requirements ?? []),
        ...(meta.findings ?? []).map((f) => f.requirement),
        ...(meta.broken ?? []).map((b) => b.requirement),
      ]);
      const failed = [...named].filter((id) => outcomeOf(ran, id) === 'fail');
      out.push({ test: test.fullName, failed, meta, errors: result.errors ?? [] });
    }
  }
  return out;
}

const firstLine = (s: string): string => (s.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 300);

/** Failed tests with the messages of what failed in them (broken rules, error findings, else the error). */
export function failureDetails(modules: readonly TestModule[]): FailedTest[] {
  const out: FailedTest[] = [];
  for (const v of testVerdicts(modules)) {
    if (v.failed.length === 0 && v.errors.length === 0) continue;
    const messages = [
      ...(v.meta.broken ?? []).map(
        (b) =>
          `[${b.requirement}] ${firstLine(b.message)}${b.expected !== undefined ? ` | expected ${b.expected.replace(/\s+/g, ' ').slice(0, 300)}` : ''}${b.actual !== undefined ? ` | received ${b.actual.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`,
      ),
      ...(v.meta.findings ?? [])
        .filter((f) => f.severity === 'error')
        .map((f) => `[${f.requirement}] check: ${f.title}: ${f.message.replace(/\s+/g, ' ').slice(0, 300)}`),
    ];
    if (messages.length === 0) messages.push(...v.errors.slice(0, 1).map((e) => firstLine(e.message ?? '')));
    if (v.failed.length === 0 && v.meta.inconclusive !== undefined) continue;
    out.push({ test: v.test, requirements: v.failed, messages });
  }
  return out;
}

/** `<test> — <first line of its first error>` for every failed test (and files that failed to load). */
export function failedTests(modules: readonly TestModule[]): string[] {
  const out: string[] = [];
  for (const module of modules) {
    const tests = [...module.children.allTests()];
    if (module.state() === 'failed' && tests.length === 0) out.push(`${module.moduleId}: the file failed to load`);
    for (const test of tests) {
      const result = test.result();
      if (result.state !== 'failed') continue;
      const first = (result.errors?.[0]?.message ?? '').split('\n').find((l) => l.trim() !== '') ?? '';
      out.push(`${test.fullName} — ${first.slice(0, 240)}`);
    }
  }
  return out;
}

export interface ProxyRunOptions {
  readonly seed: number;
  readonly grep?: string | undefined;
  /** Reporters for vitest (the runners pass a silent one). */
  readonly reporters: string[];
  /** Settings of the embedded reference server, over the embedded defaults. */
  readonly settings?: Partial<ServerSettings>;
  /** Changes the suite configuration of the run (e.g. an option the target needs). */
  readonly config?: (config: SuiteConfig) => SuiteConfig;
  /** Starts the target behind the proxy (default: the embedded reference server of this tree; source mutants start a patched copy's). */
  readonly start?: typeof startEmbeddedTarget;
}

/** A fresh embedded reference server, the proxy with `hooks` in front of it, and the whole suite through the proxy. */
export async function runThroughProxy(hooks: ProxyHooks, o: ProxyRunOptions): Promise<RunResult> {
  const started = performance.now();
  const embedded = await (o.start ?? startEmbeddedTarget)(
    { creditBudget: 10_000, seed: o.seed, profile: 'quick' },
    { ...embeddedSettings, ...o.settings },
  );
  const origin = new URL(embedded.config.baseUrl).origin;
  const control = embedded.config.control!;
  let changed = 0;
  const counted: ProxyHooks = {
    ...(hooks.request && {
      request: async (req, ctx) => {
        const out = await hooks.request!(req, ctx);
        if (out !== req) changed++;
        return out;
      },
    }),
    ...(hooks.response && {
      response: async (res, req, ctx) => {
        const out = await hooks.response!(res, req, ctx);
        if (out !== res) changed++;
        return out;
      },
    }),
  };
  const proxy = await startMutatingProxy(origin, counted, {
    controlToken: control.token,
    fixtureBaseUrl: embedded.config.fixtureBaseUrl!,
    fixtureCa: embedded.fixtures.ca,
  });
  try {
    const proxied: SuiteConfig = {
      ...embedded.config,
      baseUrl: `${proxy.url}/api/v1`,
      control: { url: `${proxy.url}/_control`, token: control.token },
    };
    const modules = await runSuite(o.config ? o.config(proxied) : proxied, o.grep, o.reporters);
    return {
      failed: failedRequirements(modules),
      failedTests: failedTests(modules),
      failures: failureDetails(modules),
      seconds: (performance.now() - started) / 1000,
      faults: [...proxy.faults],
      tests: modules.reduce((n, m) => n + [...m.children.allTests()].length, 0),
      changed,
      inconclusive: testVerdicts(modules)
        .filter((v) => v.meta.inconclusive !== undefined)
        .map((v) => `${v.test} — ${firstLine(v.meta.inconclusive ?? '')}`),
    };
  } finally {
    await proxy.close();
    await embedded.close();
  }
}

/** The tag a worker prints before each result line. */
export const resultTag = '@@proxy-run-result ';

export const serialiseResult = (r: RunResult): string => JSON.stringify({ ...r, failed: [...r.failed] });

export function deserialiseResult(raw: unknown): RunResult {
  const r = raw as Omit<RunResult, 'failed'> & { failed: RequirementId[] };
  return { ...r, failed: new Set(r.failed) };
}

/** Prints one result for a parent's pool. */
export function printResult(name: string, result: RunResult): void {
  process.stdout.write(`${resultTag}${JSON.stringify({ name, result: JSON.parse(serialiseResult(result)) })}\n`);
}

/** Runs `script` (with this process's loader flags) in a child process and reads its one result line. */
export function runInChild(script: string, args: readonly string[], label: string): Promise<RunResult> {
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
      resolve(deserialiseResult((JSON.parse(line.slice(resultTag.length)) as { result: unknown }).result));
    });
  });
}

/** Runs `items` `jobs` at a time, calling `done` as each finishes (in finishing order). */
export async function pool<T>(
  items: readonly T[],
  jobs: number,
  run: (item: T) => Promise<RunResult>,
  done: (i: number, item: T, result: RunResult) => void,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(Math.max(1, jobs), items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        done(i, items[i]!, await run(items[i]!));
      }
    }),
  );
}
