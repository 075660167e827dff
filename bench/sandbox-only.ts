/**
 * `npm run bench -- --only sandbox` (or BENCH_ONLY=sandbox): the sandbox benchmark alone, its figures
 * merged into the committed reports/bench/bench.json (the other benchmarks' figures are kept as they were
 * measured), the goals judged again and bench.md rendered again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchProblems } from './bench-schema.ts';
import { log } from './common.ts';
import { judgeGoals } from './goals.ts';
import { renderMarkdown } from './markdown.ts';
import { runSandboxBench, type SandboxBenchOptions } from './sandbox-bench.ts';
import type { BenchReport } from './report.ts';

/** The sandbox benchmark's sizes: a quick smoke run, or the figures to quote. */
export function sandboxBenchOptions(quick: boolean): SandboxBenchOptions {
  return quick
    ? { rounds: 2, seconds: 2, connections: 10, heldRequests: 300 }
    : { rounds: 4, seconds: 5, connections: 10, heldRequests: 10_000 };
}

/** Runs the sandbox benchmark and merges it into `reportDir`/bench.json and bench.md. */
export async function runSandboxOnly(reportDir: string, quick: boolean): Promise<void> {
  const path = join(reportDir, 'bench.json');
  const previous = JSON.parse(readFileSync(path, 'utf8')) as BenchReport;
  let sandbox: BenchReport['sandbox'];
  try {
    // BENCH_SANDBOX_PARTS=balanced (or single) runs one part; the other is kept from the committed report.
    const parts = process.env.BENCH_SANDBOX_PARTS?.split(',').filter((p) => p === 'single' || p === 'balanced');
    const fresh = await runSandboxBench({ ...sandboxBenchOptions(quick), ...(parts?.length && { parts }) });
    const kept =
      previous.sandbox && !('error' in previous.sandbox) && previous.sandbox.ran ? previous.sandbox : undefined;
    sandbox =
      fresh.ran && kept
        ? {
            ...fresh,
            ...(!fresh.single && kept.single && { single: kept.single }),
            ...(!fresh.balanced && kept.balanced && { balanced: kept.balanced }),
          }
        : fresh;
  } catch (error) {
    log(`sandbox failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    sandbox = { error: error instanceof Error ? error.message : String(error) };
  }
  const { goals: _old, sandbox: _before, ...rest } = previous;
  const merged: BenchReport = { ...rest, goals: [], sandbox };
  const ordered = { ...previous, goals: judgeGoals(merged), sandbox };
  const json = `${JSON.stringify(ordered, null, 2)}\n`;
  const problems = benchProblems(JSON.parse(json));
  if (problems.length > 0) log(`bench.json does not match bench/bench.schema.json:\n  ${problems.join('\n  ')}`);
  writeFileSync(path, json);
  writeFileSync(join(reportDir, 'bench.md'), renderMarkdown(ordered));
  process.stdout.write(
    `${renderMarkdown(ordered)}\nMerged the sandbox figures into reports/bench/bench.json and bench.md.\n`,
  );
}
