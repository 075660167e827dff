/**
 * `npm run mutants`: runs the conformance suite against every mutant (a fresh embedded reference
 * server behind a mutating proxy each time) and prints which were killed, by which requirements,
 * in how long, and the mutation score. Exit 1 when any mutant survives.
 *
 * A baseline run (the proxy with no mutation) comes first: a requirement that already fails there
 * cannot kill a mutant, and one that fails only under a mutant but is not among its `breaks` is
 * listed as collateral (a sign the mutant breaks more than its one rule).
 *
 *   npx tsx tests/mutants/run-mutants.ts [--quick] [--only a,b] [--family f] [--class c] [--seed N] [--grep pattern]
 *                                        [--jobs N] [--skip-baseline] [--verbose] [--list]
 *
 * `--jobs N` runs N mutants at a time, each in a child process of its own (a run is mostly waiting,
 * so 2 jobs on 2 cores roughly halve the wall time).
 */
import { parseArgs } from 'node:util';
import type { RequirementId } from '../../src/contract/requirements.ts';
import { classOf, type Mutation } from './mutating-proxy.ts';
import { mutants, quickMutants } from './mutants.ts';
import { pool, printResult, runInChild, runThroughProxy, type RunResult } from './proxy-run.ts';
import { specificityLine } from '../variants/last-result.ts';

interface Outcome extends RunResult {
  readonly mutant: Mutation;
  readonly killedBy: readonly RequirementId[];
  readonly collateral: readonly RequirementId[];
}

const identity: Mutation = { name: '(baseline: no mutation)', family: 'auth', breaks: [] };
const silent = new URL('./silent-reporter.ts', import.meta.url).pathname;

const runOnce = (mutant: Mutation, seed: number, grep: string | undefined): Promise<RunResult> =>
  runThroughProxy(mutant, { seed, grep, reporters: [silent] });

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    family: { type: 'string' },
    class: { type: 'string' },
    quick: { type: 'boolean', default: false },
    seed: { type: 'string' },
    grep: { type: 'string' },
    'skip-baseline': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    list: { type: 'boolean', default: false },
    jobs: { type: 'string' },
    /** Internal: run the --only mutants and print each result as one JSON line, for a parent's pool. */
    worker: { type: 'boolean', default: false },
  },
});
const jobs = Math.max(1, Number(values.jobs ?? 1));
const seed = Number(values.seed ?? 42);
let selected: readonly Mutation[] = mutants;
if (values.quick) selected = selected.filter((m) => quickMutants.includes(m.name));
if (values.family) selected = selected.filter((m) => values.family!.split(',').includes(m.family));
if (values.class) selected = selected.filter((m) => values.class!.split(',').includes(classOf(m)));
if (values.only) {
  const names = values.only.split(',');
  const unknown = names.filter((n) => !mutants.some((m) => m.name === n));
  if (unknown.length > 0) throw new Error(`unknown mutant(s): ${unknown.join(', ')}`);
  selected = selected.filter((m) => names.includes(m.name));
}

const cell = (s: string) => s.replaceAll('|', '\\|');
if (values.list) {
  process.stdout.write(
    [
      '| mutant | family | class | breaks | does |',
      '|---|---|---|---|---|',
      ...selected.map(
        (m) => `| ${m.name} | ${m.family} | ${classOf(m)} | ${m.breaks.join(', ')} | ${cell(m.does ?? '')} |`,
      ),
      '',
    ].join('\n'),
  );
  process.exit(0);
}

if (values.worker) {
  for (const mutant of selected) printResult(mutant.name, await runOnce(mutant, seed, values.grep));
  process.exit(0);
}

/** Runs one mutant in a child process (same loader flags as this one) and reads its result line. */
const inChild = (mutant: Mutation): Promise<RunResult> =>
  runInChild(
    new URL(import.meta.url).pathname,
    ['--worker', '--only', mutant.name, '--seed', String(seed), ...(values.grep ? ['--grep', values.grep] : [])],
    mutant.name,
  );

const wall = performance.now();
const log = (line: string) => process.stderr.write(`${line}\n`);
let baseline: RunResult | undefined;
if (!values['skip-baseline']) {
  log(`baseline: the suite through the proxy with no mutation (seed ${seed}) …`);
  baseline = await runOnce(identity, seed, values.grep);
  log(
    `baseline: ${baseline.tests} tests, ${baseline.failedTests.length} failed, ${baseline.seconds.toFixed(1)} s${baseline.failed.size > 0 ? `; failing requirements: ${[...baseline.failed].join(', ')}` : ''}`,
  );
  for (const t of baseline.failedTests) log(`  baseline failure: ${t}`);
}
const before = baseline?.failed ?? new Set<RequirementId>();

const outcomes: Outcome[] = [];
const record = (i: number, mutant: Mutation, result: RunResult): void => {
  log(
    `[${i + 1}/${selected.length}] ${mutant.name} (${mutant.family}${classOf(mutant) === mutant.family ? '' : `, ${classOf(mutant)}`})`,
  );
  const fresh = [...result.failed].filter((id) => !before.has(id));
  const outcome: Outcome = {
    ...result,
    mutant,
    killedBy: mutant.breaks.filter((id) => result.failed.has(id) && !before.has(id)),
    collateral: fresh.filter((id) => !mutant.breaks.includes(id)),
  };
  outcomes.push(outcome);
  log(
    `    ${outcome.killedBy.length > 0 ? 'killed' : 'SURVIVED'} in ${result.seconds.toFixed(1)} s by ${outcome.killedBy.join(', ') || '-'}${result.faults.length > 0 ? `; ${result.faults.length} proxy fault(s)` : ''}`,
  );
  if (values.verbose) {
    for (const t of result.failedTests) log(`      failed: ${t}`);
    for (const f of result.faults.slice(0, 3)) log(`      fault: ${f.split('\n').slice(0, 3).join(' / ')}`);
  }
  const shadowed = mutant.breaks.filter((id) => before.has(id));
  if (shadowed.length > 0)
    log(`    note: ${shadowed.join(', ')} already fail(s) in the baseline, so cannot count as kills`);
};
if (jobs === 1) {
  for (const [i, mutant] of selected.entries()) record(i, mutant, await runOnce(mutant, seed, values.grep));
} else {
  await pool(selected, jobs, inChild, record);
  // Back in list order for the table.
  outcomes.sort((a, b) => selected.indexOf(a.mutant) - selected.indexOf(b.mutant));
}

const rows = outcomes.map(
  (o) =>
    `| ${o.mutant.name} | ${o.mutant.family} | ${classOf(o.mutant)} | ${o.mutant.breaks.join(', ')} | ${o.killedBy.length > 0 ? 'killed' : '**SURVIVED**'} | ${o.killedBy.join(', ') || '-'} | ${o.collateral.length} | ${o.seconds.toFixed(1)} s |${o.faults.length > 0 ? ` ${o.faults.length} proxy fault(s)` : ''}`,
);
const killed = outcomes.filter((o) => o.killedBy.length > 0).length;

/** `auth 4/4, scoping 5/5, …`: the score of each class, so a weak class stands out. */
function scorePerClass(list: readonly Outcome[]): string {
  const byClass = new Map<string, [number, number]>();
  for (const o of list) {
    const [k, n] = byClass.get(classOf(o.mutant)) ?? [0, 0];
    byClass.set(classOf(o.mutant), [k + (o.killedBy.length > 0 ? 1 : 0), n + 1]);
  }
  return [...byClass].map(([c, [k, n]]) => `${c} ${k}/${n}`).join(', ');
}
const minutes = (performance.now() - wall) / 60_000;
process.stdout.write(
  [
    '',
    '| mutant | family | class | breaks | verdict | killed by | collateral | time |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Score per class: ${scorePerClass(outcomes)}`,
    `Mutation score: ${killed}/${outcomes.length} (${((100 * killed) / Math.max(1, outcomes.length)).toFixed(0)}%); wall time ${minutes.toFixed(1)} min${baseline ? ` (baseline ${baseline.seconds.toFixed(0)} s included)` : ''}`,
    specificityLine(),
    '',
  ].join('\n'),
);
const survivors = outcomes.filter((o) => o.killedBy.length === 0);
if (survivors.length > 0) {
  process.stdout.write(`Survivors: ${survivors.map((o) => o.mutant.name).join(', ')}\n`);
}
if (values.verbose) {
  for (const o of outcomes.filter((x) => x.collateral.length > 0))
    process.stdout.write(`collateral of ${o.mutant.name}: ${o.collateral.join(', ')}\n`);
}
// Undici keep-alive sockets of the per-run agents must not keep the process up.
process.exit(killed === outcomes.length ? 0 : 1);
