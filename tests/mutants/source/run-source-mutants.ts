/**
 * `npm run mutants:source`: the conformance suite against the reference server with one realistic
 * bug written into its source (tests/mutants/source/catalogue.ts). Each mutant runs in a child
 * process of its own: a temporary copy of the tree with the bug applied, its embedded server behind
 * the (identity) proxy, and this tree's suite through it. A baseline (the copy unpatched) comes
 * first: a requirement that fails there cannot count as a kill. Prints the score per class and per
 * file and every survivor; a whole-set run (no --only, --class or --quick) writes
 * reports/mutants-source/last.md and last.json. `--update-published` merges the chosen mutants'
 * fresh outcomes into the published result instead (after a fix to the suite or a mutant).
 *
 *   npx tsx tests/mutants/source/run-source-mutants.ts [--quick] [--only a,b] [--class c] [--seed N]
 *                                                      [--jobs N] [--skip-baseline] [--verbose] [--list]
 *
 * Exit 1 when a bug survives that is not explained as equivalent, or a conforming edit fails (a false verdict).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RequirementId } from '../../../src/contract/requirements.ts';
import { classOf } from '../mutating-proxy.ts';
import { printResult, runInChild, runThroughProxy, type RunResult } from '../proxy-run.ts';
import { quickSourceMutants, sourceMutants } from './catalogue.ts';
import { patchedCopy, repoRoot } from './patched-copy.ts';
import {
  bugsOf,
  byClass,
  byFile,
  counts,
  falseVerdictsOf,
  isConformingEdit,
  json,
  markdown,
  survivorNote,
  type SourceOutcome,
} from './score.ts';
import type { SourceMutant } from './source-mutant.ts';

const silent = new URL('../silent-reporter.ts', import.meta.url).pathname;
const baselineName = '(baseline)';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    class: { type: 'string' },
    quick: { type: 'boolean', default: false },
    seed: { type: 'string' },
    'skip-baseline': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    list: { type: 'boolean', default: false },
    'update-published': { type: 'boolean', default: false },
    jobs: { type: 'string' },
    /** Internal: run one mutant (or the baseline) and print its result line, for the parent. */
    worker: { type: 'string' },
  },
});
const seed = Number(values.seed ?? 42);
const jobs = Math.max(1, Number(values.jobs ?? 1));

let selected: readonly SourceMutant[] = sourceMutants;
if (values.quick) selected = selected.filter((m) => quickSourceMutants.includes(m.name));
if (values.class) selected = selected.filter((m) => values.class!.split(',').includes(classOf(m)));
if (values.only) {
  const names = values.only.split(',');
  const unknown = names.filter((n) => !sourceMutants.some((m) => m.name === n));
  if (unknown.length > 0) throw new Error(`unknown source mutant(s): ${unknown.join(', ')}`);
  selected = selected.filter((m) => names.includes(m.name));
}

const cell = (s: string) => s.replaceAll('|', '\\|');
if (values.list) {
  process.stdout.write(
    [
      '| mutant | class | file | breaks | does |',
      '|---|---|---|---|---|',
      ...selected.map((m) => `| ${m.name} | ${classOf(m)} | ${m.file} | ${m.breaks.join(', ')} | ${cell(m.does)} |`),
      '',
    ].join('\n'),
  );
  process.exit(0);
}

/** One run of the suite against a patched copy (none: the baseline), in this process. */
async function runOne(mutant: SourceMutant | undefined): Promise<RunResult> {
  const copy = await patchedCopy(mutant);
  try {
    return await runThroughProxy({}, { seed, reporters: [silent], start: copy.start });
  } finally {
    copy.remove();
  }
}

if (values.worker !== undefined) {
  const mutant = values.worker === baselineName ? undefined : sourceMutants.find((m) => m.name === values.worker);
  if (values.worker !== baselineName && !mutant) throw new Error(`unknown source mutant ${values.worker}`);
  printResult(values.worker, await runOne(mutant));
  process.exit(0);
}

const inChild = (name: string): Promise<RunResult> =>
  runInChild(new URL(import.meta.url).pathname, ['--worker', name, '--seed', String(seed)], name);

const wall = performance.now();
const log = (line: string) => process.stderr.write(`${line}\n`);
let baseline: RunResult | undefined;
if (!values['skip-baseline']) {
  log(`baseline: the suite against an unpatched copy (seed ${seed}) …`);
  baseline = await inChild(baselineName);
  log(
    `baseline: ${baseline.tests} tests, ${baseline.failedTests.length} failed, ${baseline.seconds.toFixed(1)} s${baseline.failed.size > 0 ? `; failing requirements: ${[...baseline.failed].join(', ')}` : ''}`,
  );
  for (const t of baseline.failedTests) log(`  baseline failure: ${t}`);
}
const before = baseline?.failed ?? new Set<RequirementId>();

const outcomes: SourceOutcome[] = [];
const record = (i: number, mutant: SourceMutant, result: RunResult | Error): void => {
  log(`[${i + 1}/${selected.length}] ${mutant.name} (${classOf(mutant)}, ${mutant.file})`);
  if (result instanceof Error) {
    outcomes.push({
      mutant,
      verdict: 'error',
      killedBy: [],
      collateral: [],
      seconds: 0,
      failedTests: [],
      error: result.message,
    });
    log(`    ERROR: ${result.message}`);
    return;
  }
  const fresh = [...result.failed].filter((id) => !before.has(id));
  // A conforming edit must fail nothing: any fresh failure is a false verdict against it.
  const killedBy = isConformingEdit(mutant) ? fresh : mutant.breaks.filter((id) => fresh.includes(id));
  const outcome: SourceOutcome = {
    mutant,
    verdict: killedBy.length > 0 ? 'killed' : 'survived',
    killedBy,
    collateral: fresh.filter((id) => !mutant.breaks.includes(id)),
    seconds: result.seconds,
    failedTests: result.failedTests,
  };
  outcomes.push(outcome);
  log(
    `    ${isConformingEdit(mutant) ? (outcome.verdict === 'killed' ? 'FALSE VERDICT' : 'passed (conforming)') : outcome.verdict === 'killed' ? 'killed' : 'SURVIVED'} in ${result.seconds.toFixed(1)} s by ${killedBy.join(', ') || '-'}${outcome.collateral.length > 0 ? `; also failed: ${outcome.collateral.join(', ')}` : ''}`,
  );
  if (values.verbose || outcome.verdict !== 'killed') for (const t of result.failedTests) log(`      failed: ${t}`);
};
// `jobs` mutants at a time, each in a child process; a child that dies without a result is an error, not a kill.
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(jobs, selected.length) }, async () => {
    while (next < selected.length) {
      const i = next++;
      const mutant = selected[i]!;
      record(
        i,
        mutant,
        await inChild(mutant.name).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))),
      );
    }
  }),
);
outcomes.sort((a, b) => selected.indexOf(a.mutant) - selected.indexOf(b.mutant));

const summary = {
  at: new Date().toISOString(),
  seed,
  scope: values.only
    ? `--only ${values.only}`
    : values.quick
      ? 'quick'
      : values.class
        ? `class ${values.class}`
        : 'all',
  wallMinutes: (performance.now() - wall) / 60_000,
  ...(baseline && { baselineSeconds: baseline.seconds }),
  outcomes,
};
const tally = counts(outcomes);
const lines = [
  '',
  '| class | killed |',
  '|---|---|',
  ...byClass(outcomes).map(
    (t) => `| ${t.key} | ${t.killed}/${t.total}${t.explained > 0 ? ` (+${t.explained} explained)` : ''} |`,
  ),
  '',
  '| file | killed |',
  '|---|---|',
  ...byFile(outcomes).map(
    (t) => `| ${t.key} | ${t.killed}/${t.total}${t.explained > 0 ? ` (+${t.explained} explained)` : ''} |`,
  ),
  '',
  `Source mutation score: ${tally.killed}/${tally.bugs} bugs (${((100 * tally.killed) / Math.max(1, tally.bugs)).toFixed(0)}%); conforming edits passed: ${tally.passed}/${tally.edits}; wall time ${summary.wallMinutes.toFixed(1)} min`,
  ...bugsOf(outcomes)
    .filter((o) => o.verdict !== 'killed')
    .map((o) => `Survivor ${o.mutant.name}: ${survivorNote(o)}`),
  ...falseVerdictsOf(outcomes).map((o) => `False verdict ${o.mutant.name}: ${survivorNote(o)}`),
  '',
];
process.stdout.write(lines.join('\n'));
const published = join(repoRoot, 'reports', 'mutants-source');
if (summary.scope === 'all' || values['update-published']) {
  const written = summary.scope === 'all' ? summary : mergedIntoPublished(summary);
  mkdirSync(published, { recursive: true });
  writeFileSync(join(published, 'last.md'), markdown(written));
  writeFileSync(join(published, 'last.json'), `${JSON.stringify(json(written), null, 2)}\n`);
  log(
    `written: reports/mutants-source/last.md and last.json${summary.scope === 'all' ? '' : ` (${summary.scope} merged into the last whole-set run)`}`,
  );
}

/** The published whole-set result with this run's outcomes in place of the same mutants' (catalogue order). */
function mergedIntoPublished(fresh: typeof summary): typeof summary {
  const last = JSON.parse(readFileSync(join(published, 'last.json'), 'utf8')) as {
    at: string;
    scope: string;
    wallMinutes: number;
    baselineSeconds?: number;
    mutants: Array<{
      name: string;
      verdict: SourceOutcome['verdict'];
      killedBy: RequirementId[];
      collateral: RequirementId[];
      seconds: number;
    }>;
  };
  const merged = sourceMutants.flatMap((mutant): SourceOutcome[] => {
    const now = fresh.outcomes.find((o) => o.mutant.name === mutant.name);
    if (now) return [now];
    const then = last.mutants.find((m) => m.name === mutant.name);
    return then
      ? [
          {
            mutant,
            verdict: then.verdict,
            killedBy: then.killedBy,
            collateral: then.collateral,
            seconds: then.seconds,
            failedTests: [],
          },
        ]
      : [];
  });
  return {
    ...fresh,
    at: `${last.at}; ${fresh.at} for ${fresh.outcomes.map((o) => o.mutant.name).join(', ')}`,
    scope: `${last.scope}, then ${fresh.scope}`,
    wallMinutes: last.wallMinutes,
    ...(last.baselineSeconds !== undefined && { baselineSeconds: last.baselineSeconds }),
    outcomes: merged,
  };
}
const unexplained = bugsOf(outcomes).filter(
  (o) => o.verdict !== 'killed' && !(o.verdict === 'survived' && o.mutant.expected),
);
process.exit(unexplained.length === 0 && falseVerdictsOf(outcomes).length === 0 ? 0 : 1);
