/**
 * `npm run mutants:client`: the typed client's own tests (tests/sdk, and src/sdk's test files)
 * against a copy of the tree with one realistic client bug written in (client-mutants.ts). A
 * baseline (the copy unpatched) comes first: a test that fails there cannot count as a kill. A
 * mutant is killed when a test fails that passed on the baseline, or when the run outlasts its
 * bound (a client that never stops retrying). A whole-set run (no --only) writes
 * reports/mutants-client/last.md and last.json.
 *
 *   npx tsx tests/mutants/client/run-client-mutants.ts [--only a,b] [--skip-baseline] [--verbose] [--list]
 *
 * Exit 1 when a mutant survives.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { clientCopy, repoRoot } from './client-copy.ts';
import { clientMutants, type ClientMutant } from './client-mutants.ts';
import { json, markdown, scoreLine, summaryOf, type ClientOutcome } from './client-score.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    'skip-baseline': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    list: { type: 'boolean', default: false },
  },
});

/** The client's tests, as vitest filters. */
const testPaths = ['tests/sdk/', 'src/sdk/'];
/** A run longer than this is a client that does not stop (vitest's own per-test timeout is 30 s). */
const runBoundMs = 300_000;

let selected: readonly ClientMutant[] = clientMutants;
if (values.only) {
  const names = values.only.split(',');
  const unknown = names.filter((n) => !clientMutants.some((m) => m.name === n));
  if (unknown.length > 0) throw new Error(`unknown client mutant(s): ${unknown.join(', ')}`);
  selected = clientMutants.filter((m) => names.includes(m.name));
}

if (values.list) {
  for (const m of selected) process.stdout.write(`${m.name}\t${m.file}\t${m.breaks.join(',')}\t${m.does}\n`);
  process.exit(0);
}

interface TestRun {
  readonly failed: readonly string[];
  readonly ran: number;
  readonly timedOut: boolean;
  readonly exitCode: number | null;
  readonly stderr: string;
}

/** Runs the client's tests in `dir` and lists the failed ones by full name. */
function runTests(dir: string): Promise<TestRun> {
  const out = join(dir, 'vitest-result.json');
  const args = ['node_modules/vitest/vitest.mjs', 'run', '--project', 'unit', '--reporter=json'];
  const child = spawn(process.execPath, [...args, `--outputFile=${out}`, ...testPaths], {
    cwd: dir,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-4_000)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, runBoundMs);
  return new Promise((resolve) => {
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const result = existsSync(out)
        ? (JSON.parse(readFileSync(out, 'utf8')) as {
            numTotalTests: number;
            testResults: { assertionResults: { status: string; fullName: string }[] }[];
          })
        : { numTotalTests: 0, testResults: [] };
      const failed = result.testResults.flatMap((f) =>
        f.assertionResults.filter((a) => a.status === 'failed').map((a) => a.fullName),
      );
      resolve({ failed, ran: result.numTotalTests, timedOut, exitCode, stderr });
    });
  });
}

async function runOne(mutant: ClientMutant | undefined): Promise<TestRun> {
  const copy = clientCopy(mutant);
  try {
    return await runTests(copy.dir);
  } finally {
    copy.remove();
  }
}

let baselineFailed: ReadonlySet<string> = new Set();
if (!values['skip-baseline']) {
  const baseline = await runOne(undefined);
  process.stdout.write(`baseline: ${baseline.ran} tests, ${baseline.failed.length} failed\n`);
  if (baseline.ran === 0) throw new Error(`the baseline ran no test:\n${baseline.stderr}`);
  for (const name of baseline.failed) process.stdout.write(`  baseline failure: ${name}\n`);
  baselineFailed = new Set(baseline.failed);
}

const outcomes: ClientOutcome[] = [];
for (const mutant of selected) {
  const started = Date.now();
  const run = await runOne(mutant);
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const killedBy = run.failed.filter((name) => !baselineFailed.has(name));
  if (run.timedOut) killedBy.push(`(the run did not end within ${runBoundMs / 1000} s)`);
  const noRun = run.ran === 0 && !run.timedOut;
  const outcome: ClientOutcome = noRun
    ? { mutant, verdict: 'error', killedBy: [], seconds, error: run.stderr.split('\n').slice(-5).join(' ') }
    : { mutant, verdict: killedBy.length > 0 ? 'killed' : 'survived', killedBy, seconds };
  outcomes.push(outcome);
  process.stdout.write(`${outcome.verdict.padEnd(8)} ${mutant.name} (${seconds} s)\n`);
  if (values.verbose) for (const name of killedBy) process.stdout.write(`    killed by: ${name}\n`);
}

const summary = summaryOf(outcomes);
process.stdout.write(`${scoreLine(summary)}\n`);
for (const o of outcomes.filter((x) => x.verdict !== 'killed'))
  process.stdout.write(`  ${o.verdict}: ${o.mutant.name}: ${o.mutant.does}\n`);
if (!values.only) {
  const dir = join(repoRoot, 'reports/mutants-client');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'last.md'), markdown(summary));
  writeFileSync(join(dir, 'last.json'), json(summary));
}
process.exitCode = outcomes.every((o) => o.verdict === 'killed') ? 0 : 1;
