/**
 * `BENCH_ONLY=proxy npm run bench`: the proxy benchmark alone, its figures merged into the
 * committed reports/bench/bench.json (the other benchmarks' figures are kept as they were measured),
 * the goals judged again and bench.md rendered again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchProblems } from './bench-schema.ts';
import { log } from './common.ts';
import { judgeGoals } from './goals.ts';
import { renderMarkdown } from './markdown.ts';
import { runProxyBench, type ProxyBenchOptions } from './proxy-bench.ts';
import type { BenchReport } from './report.ts';

/** The proxy benchmark's sizes: a quick smoke run, or the figures to quote. */
export function proxyBenchOptions(quick: boolean): ProxyBenchOptions {
  return quick
    ? {
        latencyRounds: 2,
        latencyRequests: 200,
        throughputRounds: 2,
        durationSeconds: 1,
        memoryRuns: 1,
        memoryConnections: 200,
      }
    : {
        latencyRounds: 5,
        latencyRequests: 1_000,
        throughputRounds: 5,
        durationSeconds: 5,
        memoryRuns: 3,
        memoryConnections: 1_000,
      };
}

/** Runs the proxy benchmark and merges it into `reportDir`/bench.json and bench.md. */
export async function runProxyOnly(reportDir: string, quick: boolean): Promise<void> {
  const path = join(reportDir, 'bench.json');
  const previous = JSON.parse(readFileSync(path, 'utf8')) as BenchReport;
  const proxy = await runProxyBench(proxyBenchOptions(quick));
  const { goals: _old, proxy: _before, ...rest } = previous;
  const merged: BenchReport = { ...rest, goals: [], proxy };
  const report: BenchReport = { ...merged, goals: judgeGoals(merged) };
  const ordered = { ...previous, goals: report.goals, proxy };
  const json = `${JSON.stringify(ordered, null, 2)}\n`;
  const problems = benchProblems(JSON.parse(json));
  if (problems.length > 0) log(`bench.json does not match bench/bench.schema.json:\n  ${problems.join('\n  ')}`);
  writeFileSync(path, json);
  writeFileSync(join(reportDir, 'bench.md'), renderMarkdown(ordered));
  process.stdout.write(
    `${renderMarkdown(ordered)}\nMerged the proxy figures into reports/bench/bench.json and bench.md.\n`,
  );
}
