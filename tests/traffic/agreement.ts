/**
 * `npm run traffic:agreement`: the acceptance of passive judgement against the reference server.
 * The whole suite runs twice with the same seed, straight at a fresh reference server and through
 * `tryon-conformance proxy` in front of another, with test control: the two runs must give the same
 * verdicts. The proxy's passive verdicts must agree with the run's on every requirement both judge
 * (a passive fail where the run passes, or a passive pass where the run fails, is a disagreement; a
 * verdict that judged nothing is none); the requirements only one of them judges are listed.
 * Exit 0 when both hold.
 *
 *   npx tsx tests/traffic/agreement.ts [--seed N] [--grep pattern] [--jobs 1|2]
 */
import { parseArgs } from 'node:util';
import { requirementIds } from '../../src/contract/requirements.ts';
import { inChild, judged, judgedRun, resultTag, type JudgedRun } from './judged-run.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '42' },
    grep: { type: 'string' },
    jobs: { type: 'string', default: '2' },
    /** Internal: one run (`direct` or `proxied`), printed as one JSON line for the parent. */
    worker: { type: 'string' },
  },
});
const seed = Number(values.seed);
const silent = new URL('../mutants/silent-reporter.ts', import.meta.url).pathname;
const once = (direct: boolean) => judgedRun({ seed, reporters: [silent], grep: values.grep, direct });

if (values.worker !== undefined) {
  process.stdout.write(`${resultTag}${JSON.stringify(await once(values.worker === 'direct'))}\n`);
  process.exit(0);
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const wall = performance.now();
log(`the suite straight at the reference server and through the proxy (seed ${seed}) …`);
const args = (kind: string) => [
  '--worker',
  kind,
  '--seed',
  String(seed),
  ...(values.grep ? ['--grep', values.grep] : []),
];
const script = new URL(import.meta.url).pathname;
const [direct, proxied]: JudgedRun[] =
  Number(values.jobs) >= 2
    ? await Promise.all([inChild(script, args('direct'), 'direct'), inChild(script, args('proxied'), 'proxied')])
    : [await once(true), await once(false)];
if (direct === undefined || proxied?.passive === undefined) throw new Error('a run gave no result');

const runsDiffer = requirementIds.filter((id) => direct.run[id] !== proxied.run[id]);
const disagreements: string[] = [];
const onlyPassive: string[] = [];
const onlyRun: string[] = [];
let both = 0;
for (const id of requirementIds) {
  const run = proxied.run[id];
  const passive = proxied.passive[id];
  if (judged(run) && judged(passive)) {
    both += 1;
    if (run !== passive)
      disagreements.push(
        `${id}: passive ${passive}, run ${run}${passive === 'fail' ? ` (${proxied.passiveFailures?.[id] ?? ''})` : ''}`,
      );
  } else if (judged(passive)) onlyPassive.push(`${id} (${passive})`);
  else if (judged(run)) onlyRun.push(id);
}
const count = (v: JudgedRun['run'], verdict: string) => Object.values(v).filter((x) => x === verdict).length;
process.stdout.write(
  [
    `Direct run: ${direct.tests} tests, ${count(direct.run, 'pass')} pass, ${count(direct.run, 'fail')} fail, ${direct.seconds.toFixed(0)} s`,
    `Through the proxy: ${proxied.tests} tests, ${count(proxied.run, 'pass')} pass, ${count(proxied.run, 'fail')} fail, ${proxied.seconds.toFixed(0)} s; ${proxied.exchanges} exchanges judged passively (state let go: ${proxied.notKept})`,
    `Run verdicts that differ through the proxy: ${runsDiffer.length}${runsDiffer.map((id) => `\n  ${id}: direct ${direct.run[id]}, proxied ${proxied.run[id]}`).join('')}`,
    `Passive: ${count(proxied.passive, 'pass')} pass, ${count(proxied.passive, 'fail')} fail, ${count(proxied.passive, 'not-observable')} not exercised or not observable, ${count(proxied.passive, 'not-covered')} not covered`,
    `Judged by both: ${both}; disagreements: ${disagreements.length}${disagreements.map((d) => `\n  ${d}`).join('')}`,
    `Judged only passively (${onlyPassive.length}): ${onlyPassive.join(', ') || '-'}`,
    `Judged only by the run (${onlyRun.length}): ${onlyRun.join(', ') || '-'}`,
    `Wall time ${((performance.now() - wall) / 60_000).toFixed(1)} min`,
    '',
  ].join('\n'),
);
process.exit(runsDiffer.length === 0 && disagreements.length === 0 ? 0 : 1);
