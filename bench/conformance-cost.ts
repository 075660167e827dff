/**
 * Benchmark 4: what a conformance run costs.
 * - Embedded: `tryon-conformance run` (full profile, the embedded reference server with test
 *   control), timed from spawn to exit, its report written to a temporary --report-dir, by two CLIs
 *   (embeddedClis): compiled, `node dist/cli/main.js` as the installed package runs it (`npx
 *   tryon-conformance run`), and from the sources, `node bin/tryon-conformance.js` through tsx as
 *   `npm start` runs it in a clone; and its `--plan` figures.
 * - Remote (no test control, documented limits): the `--plan` figures for the target that
 *   tests/acceptance/run-without-control.ts builds (quick profile, budget 8, a second account's key
 *   and a revoked key), against that script's real run: its wall time and the credits it spent as
 *   counted by GET /account. The real run mostly waits on the 12 starts/min limit (about 2 % of a
 *   core), so the orchestrator starts it first and lets it run beside the other benchmarks.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { log, repoRoot } from './common.ts';
import { parsePlanText, type PlanText } from './plan-output.ts';

/** What `--plan` printed (bench/plan-output.ts), and the command that printed it. */
export interface PlanFigures extends PlanText {
  readonly command: string;
  readonly error?: string;
}

/** The repository's launcher: the CLI from its TypeScript sources through tsx (also what `--plan` runs). */
const cli = 'bin/tryon-conformance.js';

/**
 * Which CLI ran the suite: `compiled` is the package's bin, dist/cli/main.js (its children, the
 * embedded server instances and the fixture host, run as plain node); `sources` is the
 * repository's launcher bin/tryon-conformance.js, the TypeScript sources through tsx.
 */
export type EmbeddedCli = 'compiled' | 'sources';

/** The script each CLI runs, relative to the repository when inside it; with a note when it cannot run here, saying why. */
export function embeddedClis(): Record<EmbeddedCli, { readonly script: string; readonly note?: string }> {
  const dist = process.env.BENCH_SERVER_DIST;
  const compiled = dist ? join(dist, 'cli', 'main.js') : undefined;
  const shown = (path: string) => {
    const r = relative(repoRoot, path);
    return r.startsWith('..') || isAbsolute(r) ? path : r;
  };
  return {
    compiled: compiled
      ? { script: shown(compiled) }
      : { script: 'dist/cli/main.js', note: 'not measured: BENCH_FROM_SOURCE=1 builds no fresh dist/' },
    sources: { script: cli },
  };
}

export interface EmbeddedRun {
  /** Absent in bench.json of schema version 2, whose runs were all from the sources. */
  readonly cli?: EmbeddedCli;
  readonly command: string;
  readonly wallSeconds: number;
  readonly exitCode: number | null;
  /** Whether the run's plan collected the suite (`collected`) or came from the kept collection (`kept`); absent before schema version 3 had it. */
  readonly collection?: 'collected' | 'kept';
  readonly reportDurationSeconds?: number;
  readonly tests?: { total: number; passed: number; failed: number; inconclusive?: number; skipped: number };
  /** Credits the run says it spent ("· credits N of B" on its last line), when it can know; else absent. */
  readonly creditsSpent?: number;
  /** report.json's own `cost`: the run's plan (estimate and bound) against what it did, as the run counted it. */
  readonly reportCost?: {
    readonly planned: {
      readonly estimate: { readonly credits: number; readonly wallSeconds: number };
      readonly bound: { readonly credits: number; readonly wallSeconds: number };
      readonly basis: string;
    };
    readonly actual: { readonly credits: number | null; readonly creditsCounted: string; readonly wallSeconds: number };
    readonly errorPercent: { readonly credits: number | null; readonly wallSeconds: number | null };
  };
  /** Sum of the executed tests' declared cost (upper bounds), from report.json. */
  readonly declaredCost?: { credits: number; starts: number; polls: number; uploads: number };
  readonly outcome?: string;
  readonly note?: string;
}

export interface RemoteRun {
  readonly command: string;
  readonly ran: boolean;
  readonly wallSeconds?: number;
  readonly exitCode?: number | null;
  /** "Without test control: 29 passed, 0 failed, 36 skipped, in 365 s" */
  readonly summaryLine?: string;
  readonly reportedSeconds?: number;
  readonly passed?: number;
  readonly failed?: number;
  readonly skipped?: number;
  readonly creditsSpent?: number;
  readonly creditBudget?: number;
  /** The run's own "Planned against actual: …" line (its plan's estimate against what it spent and took), when it prints one. */
  readonly plannedLine?: string;
  /** Skips of the real run whose reason is the credit budget ("needs up to N credits; M of the budget of B are left"). */
  readonly skippedForBudget?: number;
  readonly note?: string;
}

interface Spawned {
  readonly exitCode: number | null;
  readonly wallSeconds: number;
  readonly output: string;
  readonly timedOut: boolean;
}

/** Runs a command with output to a file; kills it (SIGTERM, then SIGKILL) after `timeoutMs`. */
function run(
  args: readonly string[],
  outPath: string,
  timeoutMs: number,
  env: Readonly<Record<string, string>> = {},
): Promise<Spawned> {
  const fd = openSync(outPath, 'w');
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  closeSync(fd);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  }, timeoutMs);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({
        exitCode: code,
        wallSeconds: Math.round((performance.now() - started) / 100) / 10,
        output: existsSync(outPath) ? readFileSync(outPath, 'utf8') : '',
        timedOut,
      });
    });
  });
}

/** `tryon-conformance run --plan` with `extra` flags; parses the figures it prints. */
export async function plan(extra: readonly string[], tmpDir: string, name: string): Promise<PlanFigures> {
  const args = [cli, 'run', '--plan', ...extra];
  const command = `tryon-conformance run --plan ${extra.join(' ')}`.trim();
  const out = await run(args, join(tmpDir, `${name}.txt`), 120_000);
  if (out.exitCode !== 0) return { command, error: `exit ${out.exitCode}: ${out.output.slice(-400)}` };
  const figures: PlanFigures = { command, ...parsePlanText(out.output) };
  log(`plan (${name}): ${JSON.stringify(figures)}`);
  return figures;
}

/** The command line of a timed run by `script`, as bench.json shows it (the report directory as <tmp>). */
export const embeddedCommand = (script: string, seed: number) =>
  `node ${script} run --profile full --seed ${seed} --report-dir <tmp>`;

/** The full profile against the embedded reference server, run by `script` (embeddedClis), timed. */
export async function runEmbeddedFull(
  tmpDir: string,
  seed: number,
  cliName: EmbeddedCli,
  script: string,
  index = 1,
): Promise<EmbeddedRun> {
  const reportDir = join(tmpDir, `conformance-reports-${cliName}-${index}`);
  const args = [script, 'run', '--profile', 'full', '--seed', String(seed), '--report-dir', reportDir];
  const command = embeddedCommand(script, seed);
  log(`conformance: full profile against the embedded server, ${cliName} CLI (run ${index})…`);
  // The kept collection (src/run/collection-cache.ts) starts empty with the bench: each CLI's first
  // run collects the suite for its plan and keeps it, and its later runs plan from it.
  const out = await run(args, join(tmpDir, `conformance-full-${cliName}-${index}.txt`), 300_000, {
    TRYON_CACHE_DIR: join(tmpDir, 'collection-cache'),
  });
  const collection = /^Plan: .*\(from the collection kept for these files/m.test(out.output) ? 'kept' : 'collected';
  const base: EmbeddedRun = {
    cli: cliName,
    command,
    wallSeconds: out.wallSeconds,
    exitCode: out.exitCode,
    collection,
    ...(out.timedOut && { note: 'killed after 300 s' }),
  };
  const reportPath = join(reportDir, 'latest', 'report.json');
  if (!existsSync(reportPath))
    return { ...base, note: `${base.note ?? ''} no report.json; output ends: ${out.output.slice(-300)}`.trim() };
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as {
    durationMs: number;
    summary: {
      outcome: string;
      tests: { total: number; passed: number; failed: number; inconclusive?: number; skipped: number };
    };
    tests: { state: string; cost?: { credits?: number; starts?: number; polls?: number; uploads?: number } }[];
    cost?: EmbeddedRun['reportCost'];
  };
  const declaredCost = { credits: 0, starts: 0, polls: 0, uploads: 0 };
  for (const t of report.tests) {
    if (t.state !== 'passed' && t.state !== 'failed') continue;
    declaredCost.credits += t.cost?.credits ?? 0;
    declaredCost.starts += t.cost?.starts ?? 0;
    declaredCost.polls += t.cost?.polls ?? 0;
    declaredCost.uploads += t.cost?.uploads ?? 0;
  }
  // "Tests: 75 (…) · credits 81 of 10000 · 1 min 20 s": spent; "credits ≤ 81" would be the declared bound only.
  const spent = /^Tests: .*· credits (\d+)(?: of \d+)? ·/m.exec(out.output);
  const result: EmbeddedRun = {
    ...base,
    ...(spent && { creditsSpent: Number(spent[1]) }),
    ...(report.cost && { reportCost: report.cost }),
    reportDurationSeconds: Math.round(report.durationMs / 100) / 10,
    tests: report.summary.tests,
    declaredCost,
    outcome: report.summary.outcome,
  };
  log(`conformance: ${JSON.stringify(result)}`);
  return result;
}

export const remotePlanFlags = [
  '--base-url',
  'https://api.example.invalid/api/v1',
  '--api-key',
  `vto_live_${'a'.repeat(44)}`,
  '--second-api-key',
  `vto_live_${'c'.repeat(44)}`,
  '--revoked-api-key',
  `vto_live_${'d'.repeat(44)}`,
  '--profile',
  'quick',
  '--credit-budget',
  '8',
] as const;

/** Starts tests/acceptance/run-without-control.ts (quick profile, budget 8) and returns its result when it ends. */
export function startRemoteRun(tmpDir: string, timeoutMs: number): { readonly done: Promise<RemoteRun> } {
  const script = 'tests/acceptance/run-without-control.ts';
  const command = `tsx ${script} --profile quick --budget 8 --seed 7`;
  log(`remote profile: ${command} started in the background (bounded at ${Math.round(timeoutMs / 1000)} s)`);
  const done = run(
    ['--import', 'tsx', script, '--profile', 'quick', '--budget', '8', '--seed', '7'],
    join(tmpDir, 'run-without-control.txt'),
    timeoutMs,
  ).then((out): RemoteRun => {
    const summary = /Without test control: (\d+) passed, (\d+) failed, (\d+) skipped, in (\d+) s/.exec(out.output);
    const spent = /spent (\d+) of a budget of (\d+)/.exec(out.output);
    const planned = /^Planned against actual: .*$/m.exec(out.output);
    const skippedForBudget = out.output
      .split('\n')
      .filter((line) => /needs up to \d+ credits; \d+ of the budget of \d+ (is|are) left/.test(line)).length;
    const result: RemoteRun = {
      command,
      ran: summary !== null,
      wallSeconds: out.wallSeconds,
      exitCode: out.exitCode,
      ...(summary && {
        summaryLine: summary[0],
        passed: Number(summary[1]),
        failed: Number(summary[2]),
        skipped: Number(summary[3]),
        reportedSeconds: Number(summary[4]),
      }),
      ...(spent && { creditsSpent: Number(spent[1]), creditBudget: Number(spent[2]) }),
      ...(planned && { plannedLine: planned[0] }),
      ...(summary && { skippedForBudget }),
      ...(out.timedOut && { note: `stopped after ${Math.round(timeoutMs / 1000)} s, before it finished` }),
    };
    log(`remote profile: ${JSON.stringify(result)}`);
    return result;
  });
  return { done };
}
