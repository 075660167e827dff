/**
 * Acceptance run of "Verdicts you can trust": the plain CLI against Stoplight Prism's mock of our own
 * openapi.yaml, a stateless foreign target that no one here wrote. The run must end in bounded time
 * with exit 1; each failed requirement must say what the target did on that requirement (not one
 * shared precondition), and whatever a stateless mock can honestly pass, it passes.
 *
 * `npx tsx tests/acceptance/run-against-prism.ts [--bound-minutes N] [--seed S] [--base-path P] [--key K]`
 *
 * Prism serves the paths at its root, so its right base URL has no /api/v1 (`--base-path /api/v1`
 * shows the preflight's stop: exit 2, "did you mean …?"). The run must also finish within the
 * wall-time bound it printed up front (issue 17).
 *
 * It prints the exit status, the wall time, the verdict counts, and each failed requirement with the
 * first line of its first failure; then how many distinct first lines there are, so one precondition
 * standing behind many verdicts shows at once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, repoRoot } from '../../bench/common.ts';
import { prismKey, startPrism, stop } from '../../bench/prism-process.ts';
import type { Report } from '../../src/report/model.ts';

const { values } = parseArgs({
  options: {
    'bound-minutes': { type: 'string', default: '120' },
    seed: { type: 'string', default: '11' },
    'base-path': { type: 'string', default: '' },
    key: { type: 'string' },
    extra: { type: 'string', multiple: true, default: [] },
  },
});
const boundMs = Number(values['bound-minutes']) * 60_000;
const dir = mkdtempSync(join(tmpdir(), 'tryon-prism-'));
const port = await freePort();
const prism = await startPrism(port, join(dir, 'prism.log'), true);
const baseUrl = `http://127.0.0.1:${port}${values['base-path']}`;
process.stderr.write(`prism mock at ${baseUrl} (log ${join(dir, 'prism.log')}); reports in ${dir}\n`);

const started = performance.now();
const args = [
  '--import',
  'tsx',
  join(repoRoot, 'src/cli/main.ts'),
  'run',
  '--base-url',
  baseUrl,
  '--seed',
  values.seed,
  '--report-dir',
  dir,
  ...values.extra,
];
const child = spawn(process.execPath, args, {
  cwd: repoRoot,
  env: { ...process.env, TRYON_API_KEY: values.key ?? prismKey, CI: '1' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
const timer = setTimeout(() => child.kill('SIGKILL'), boundMs);
const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
clearTimeout(timer);
const seconds = (performance.now() - started) / 1000;
await stop(prism.child);

// The run states its own wall-time bound up front (the plan's); it must finish within it.
const planBound = /wall-time bound (\d+) min/.exec(output)?.[1];
const within = planBound !== undefined && seconds <= Number(planBound) * 60;
const lines = [
  `exit ${code === null ? 'killed at the safety bound' : code} after ${seconds.toFixed(0)} s (safety bound ${values['bound-minutes']} min)`,
  `the run's own wall-time bound: ${planBound ?? '(not printed)'} min; finished within it: ${within ? 'yes' : 'NO'}`,
];
let report: Report | undefined;
try {
  report = JSON.parse(readFileSync(join(dir, 'latest', 'report.json'), 'utf8')) as Report;
} catch {
  lines.push('no report.json was written', output.split('\n').slice(-15).join('\n'));
}
if (report) {
  const c = report.summary.requirements;
  lines.push(
    `requirements: ${c.pass} pass, ${c.fail} fail, ${c.inconclusive ?? 0} inconclusive, ${c.skip} skip, ${c.notObservable} not observable, ${c.notCovered} not covered; outcome ${report.summary.outcome}`,
  );
  const firstLines = new Map<string, number>();
  for (const r of report.requirements.filter((x) => x.verdict === 'fail')) {
    const first = r.failures[0];
    const line =
      `${first?.message.split('\n')[0] ?? '(no failure text)'}${first?.received !== undefined ? ` | received: ${first.received.split('\n')[0]}` : ''}`.slice(
        0,
        220,
      );
    firstLines.set(line, (firstLines.get(line) ?? 0) + 1);
    lines.push(`  FAIL ${r.id} (${r.level}): ${line}`);
  }
  const shared = [...firstLines].filter(([, n]) => n > 2);
  lines.push(
    `${firstLines.size} distinct failure texts${shared.length > 0 ? `; shared by more than two requirements: ${shared.map(([l, n]) => `${n}× "${l.slice(0, 80)}"`).join('; ')}` : ''}`,
  );
  lines.push(
    `passed: ${report.requirements
      .filter((x) => x.verdict === 'pass')
      .map((x) => x.id)
      .join(', ')}`,
  );
  for (const choice of report.choices ?? [])
    lines.push(`  chose ${choice.point}: ${choice.values.map((v) => `${v.value} (${v.count})`).join(', ')}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(code === 1 && report !== undefined && within ? 0 : 1);
