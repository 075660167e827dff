/**
 * `npm run mutants:passive`: for each proxy mutant of tests/mutants, the whole suite runs through
 * `tryon-conformance proxy` placed in front of the mutant's proxy, and the passive judge's verdicts
 * are scored: a mutant is flagged passively when a requirement its `breaks` names failed passively
 * (and not in the baseline, the same chain with no mutation). The run's own kill is shown beside it,
 * and passive failures outside `breaks` are listed (collateral: a passive failure the mutant's rule
 * does not name). Writes reports/mutants-passive/last.md and last.json on a whole-set run.
 *
 *   npx tsx tests/traffic/passive-mutants.ts [--quick] [--only a,b] [--family f] [--class c] [--seed N] [--jobs N]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { RequirementId } from '../../src/contract/requirements.ts';
import { classOf, type Mutation } from '../mutants/mutating-proxy.ts';
import { mutants, quickMutants } from '../mutants/mutants.ts';
import { inChild, judgedRun, resultTag, type JudgedRun } from './judged-run.ts';
import { notVisible } from './passive-mutants-why.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    family: { type: 'string' },
    class: { type: 'string' },
    quick: { type: 'boolean', default: false },
    seed: { type: 'string', default: '42' },
    jobs: { type: 'string', default: '1' },
    /** Internal: run one mutant (or `baseline`) and print its result as one JSON line. */
    worker: { type: 'string' },
  },
});
const seed = Number(values.seed);
const silent = new URL('../mutants/silent-reporter.ts', import.meta.url).pathname;
const identity: Mutation = { name: 'baseline', family: 'auth', breaks: [] };
const once = (m: Mutation) => judgedRun({ seed, reporters: [silent], ...(m.name !== 'baseline' && { hooks: m }) });

if (values.worker !== undefined) {
  const mutant = values.worker === 'baseline' ? identity : mutants.find((m) => m.name === values.worker);
  if (mutant === undefined) throw new Error(`unknown mutant ${values.worker}`);
  process.stdout.write(`${resultTag}${JSON.stringify(await once(mutant))}\n`);
  process.exit(0);
}

let selected: readonly Mutation[] = mutants;
if (values.quick) selected = selected.filter((m) => quickMutants.includes(m.name));
if (values.family) selected = selected.filter((m) => values.family?.split(',').includes(m.family));
if (values.class) selected = selected.filter((m) => values.class?.split(',').includes(classOf(m)));
if (values.only) selected = selected.filter((m) => values.only?.split(',').includes(m.name));
const whole = selected.length === mutants.length;

const script = new URL(import.meta.url).pathname;
const inWorker = (m: Mutation) => inChild(script, ['--worker', m.name, '--seed', String(seed)], m.name);
const log = (line: string) => process.stderr.write(`${line}\n`);
const wall = performance.now();

log(`baseline: the suite through tryon-conformance proxy and the mutants' proxy, no mutation (seed ${seed}) …`);
const baseline = await inWorker(identity);
const failing = (verdicts: JudgedRun['run'] | undefined) =>
  new Set(Object.entries(verdicts ?? {}).flatMap(([id, v]) => (v === 'fail' ? [id] : [])));
const baseRun = failing(baseline.run);
const basePassive = failing(baseline.passive);
log(
  `baseline: run fails ${[...baseRun].join(', ') || 'nothing'}; passive fails ${[...basePassive].join(', ') || 'nothing'}`,
);

interface Outcome {
  readonly mutant: string;
  readonly family: string;
  readonly class: string;
  readonly breaks: readonly RequirementId[];
  readonly killedBy: readonly string[];
  readonly flaggedBy: readonly string[];
  readonly passiveCollateral: readonly string[];
  readonly notes: Readonly<Record<string, string>>;
  readonly exchanges: number;
  readonly seconds: number;
}
const outcomes: Outcome[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(Math.max(1, Number(values.jobs)), selected.length) }, async () => {
    while (next < selected.length) {
      const i = next++;
      const m = selected[i] as Mutation;
      let r: JudgedRun;
      try {
        // Once more when a worker gave no result (a port taken between its check and the listen, say).
        r = await inWorker(m).catch(() => inWorker(m));
      } catch (error) {
        log(`[${i + 1}/${selected.length}] ${m.name}: no result (${(error as Error).message})`);
        continue;
      }
      const run = [...failing(r.run)].filter((id) => !baseRun.has(id));
      const passive = [...failing(r.passive)].filter((id) => !basePassive.has(id));
      const o: Outcome = {
        mutant: m.name,
        family: m.family,
        class: classOf(m),
        breaks: m.breaks,
        killedBy: m.breaks.filter((id) => run.includes(id)),
        flaggedBy: m.breaks.filter((id) => passive.includes(id)),
        passiveCollateral: passive.filter((id) => !(m.breaks as readonly string[]).includes(id)),
        notes: Object.fromEntries(passive.map((id) => [id, r.passiveFailures?.[id] ?? ''])),
        exchanges: r.exchanges ?? 0,
        seconds: r.seconds,
      };
      outcomes.push(o);
      log(
        `[${i + 1}/${selected.length}] ${m.name} (${o.class}): run ${o.killedBy.length > 0 ? 'killed' : 'survived'}, passive ${o.flaggedBy.length > 0 ? `flagged by ${o.flaggedBy.join(', ')}` : 'not flagged'}${o.passiveCollateral.length > 0 ? `; passive collateral ${o.passiveCollateral.join(', ')}` : ''} (${r.seconds.toFixed(0)} s)`,
      );
    }
  }),
);
outcomes.sort(
  (a, b) => selected.findIndex((m) => m.name === a.mutant) - selected.findIndex((m) => m.name === b.mutant),
);

/** Per class: flagged passively, killed by the run, all. */
const classes = new Map<string, { flagged: number; killed: number; total: number }>();
for (const o of outcomes) {
  const c = classes.get(o.class) ?? { flagged: 0, killed: 0, total: 0 };
  c.total += 1;
  if (o.flaggedBy.length > 0) c.flagged += 1;
  if (o.killedBy.length > 0) c.killed += 1;
  classes.set(o.class, c);
}
const flagged = outcomes.filter((o) => o.flaggedBy.length > 0).length;
const unflagged = outcomes.filter((o) => o.flaggedBy.length === 0);
const gaps = unflagged.filter((o) => notVisible[o.mutant] === undefined).length;
const killed = outcomes.filter((o) => o.killedBy.length > 0).length;
const minutes = (performance.now() - wall) / 60_000;
const cell = (s: string) => s.replaceAll('|', '\\|');
const md = [
  '# Passive score of the proxy mutants',
  '',
  `The whole suite through \`tryon-conformance proxy\` in front of each mutant of tests/mutants (seed ${seed}); a mutant is`,
  "flagged passively when a requirement its `breaks` names failed in the proxy's passive verdicts (and not in the",
  "baseline). The run's own kill is beside it. Passive collateral: passive failures the mutant's `breaks` does not name.",
  '',
  `Passive score: **${flagged}/${outcomes.length}** flagged (the run killed ${killed}/${outcomes.length}); wall time ${minutes.toFixed(1)} min.`,
  `Not flagged: ${unflagged.length}, of which ${unflagged.length - gaps} cannot show in the traffic (below, why) and ${gaps} are gaps in the passive rules.`,
  `Baseline passive failures: ${[...basePassive].join(', ') || 'none'}; baseline run failures: ${[...baseRun].join(', ') || 'none'}.`,
  '',
  '| class | flagged passively | killed by the run | mutants |',
  '|---|---|---|---|',
  ...[...classes].map(([c, s]) => `| ${c} | ${s.flagged} | ${s.killed} | ${s.total} |`),
  '',
  '| mutant | class | breaks | run | passive | passive collateral |',
  '|---|---|---|---|---|---|',
  ...outcomes.map(
    (o) =>
      `| ${o.mutant} | ${o.class} | ${o.breaks.join(', ')} | ${o.killedBy.length > 0 ? 'killed' : 'survived'} | ${o.flaggedBy.length > 0 ? `flagged: ${o.flaggedBy.join(', ')}` : '-'} | ${cell(o.passiveCollateral.join(', ')) || '-'} |`,
  ),
  '',
  '## Why the unflagged ones are not visible in the traffic',
  '',
  '| mutant | class | why the traffic does not show it |',
  '|---|---|---|',
  ...unflagged.map(
    (o) =>
      `| ${o.mutant} | ${o.class} | ${cell(notVisible[o.mutant] ?? 'no reason known: a gap in the passive rules')} |`,
  ),
  '',
];
process.stdout.write(md.join('\n'));
if (whole) {
  const dir = new URL('../../reports/mutants-passive/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}last.md`, md.join('\n'));
  const json = {
    seed,
    minutes: Number(minutes.toFixed(1)),
    flagged,
    killed,
    total: outcomes.length,
    notVisible: Object.fromEntries(unflagged.map((o) => [o.mutant, notVisible[o.mutant] ?? null])),
    baseline: { run: [...baseRun], passive: [...basePassive] },
    classes: Object.fromEntries(classes),
    outcomes,
  };
  writeFileSync(`${dir}last.json`, `${JSON.stringify(json, null, 2)}\n`);
}
process.exit(0);
