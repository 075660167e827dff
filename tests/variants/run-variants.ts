/**
 * `npm run variants`: runs the conformance suite against every conforming variant (a fresh
 * embedded reference server behind the proxy each time, playing one spec-allowed choice) and
 * prints which passed, which requirements and tests failed, and the specificity. A variant passes
 * only when the run fails no requirement; one that fails is a defect in the suite. Exit 1 when any
 * variant fails.
 *
 *   npx tsx tests/variants/run-variants.ts [--quick] [--only a,b] [--class c] [--jobs N] [--seed N]
 *                                          [--grep pattern] [--baseline] [--verbose] [--list]
 *
 * `--baseline` first runs the suite through the proxy with no variant; requirements that fail there
 * (a defect of the reference server or the suite on its own) are shown apart and not counted.
 */
import { parseArgs } from 'node:util';
import { pool, printResult, runInChild, runThroughProxy, type RunResult } from '../mutants/proxy-run.ts';
import { writeLastResult } from './last-result.ts';
import type { Variant } from './variant.ts';
import { quickVariants, variants } from './variants.ts';

const silent = new URL('../mutants/silent-reporter.ts', import.meta.url).pathname;

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    class: { type: 'string' },
    quick: { type: 'boolean', default: false },
    seed: { type: 'string' },
    grep: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    /** First run the proxy with no variant: requirements that fail there fail every variant, and are shown apart. */
    baseline: { type: 'boolean', default: false },
    list: { type: 'boolean', default: false },
    jobs: { type: 'string' },
    /** Internal: run the --only variants and print each result as one JSON line, for a parent's pool. */
    worker: { type: 'boolean', default: false },
  },
});
const jobs = Math.max(1, Number(values.jobs ?? 1));
const seed = Number(values.seed ?? 42);
let selected: readonly Variant[] = variants;
if (values.quick) selected = selected.filter((v) => quickVariants.includes(v.name));
if (values.class) selected = selected.filter((v) => values.class!.split(',').includes(v.class));
if (values.only) {
  const names = values.only.split(',');
  const unknown = names.filter((n) => !variants.some((v) => v.name === n));
  if (unknown.length > 0) throw new Error(`unknown variant(s): ${unknown.join(', ')}`);
  selected = selected.filter((v) => names.includes(v.name));
}

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
if (values.list) {
  process.stdout.write(
    [
      '| variant | class | does | allowed by |',
      '|---|---|---|---|',
      ...selected.map((v) => `| ${v.name} | ${v.class} | ${cell(v.does)} | ${cell(v.allowedBy)} |`),
      '',
      `${selected.length} variants`,
      '',
    ].join('\n'),
  );
  process.exit(0);
}

const identity: Variant = {
  name: '(baseline: the reference server)',
  class: 'reference-choices',
  allowedBy: '',
  does: '',
};

const runOnce = (v: Variant): Promise<RunResult> =>
  runThroughProxy(v, {
    seed,
    grep: values.grep,
    reporters: [silent],
    ...(v.settings && { settings: v.settings }),
    ...(v.config && { config: v.config }),
  });

if (values.worker) {
  for (const v of values.only === identity.name ? [identity] : selected) printResult(v.name, await runOnce(v));
  process.exit(0);
}

const inChild = (v: Variant): Promise<RunResult> =>
  runInChild(
    new URL(import.meta.url).pathname,
    ['--worker', '--only', v.name, '--seed', String(seed), ...(values.grep ? ['--grep', values.grep] : [])],
    v.name,
  );

interface Outcome extends RunResult {
  readonly variant: Variant;
  readonly passed: boolean;
  /** Tests failed without failing a requirement (an error in suite code, a file that did not load): not a pass. */
  readonly broken: boolean;
}

const wall = performance.now();
const log = (line: string) => process.stderr.write(`${line}\n`);
const outcomes: Outcome[] = [];
let baseline: RunResult | undefined;
if (values.baseline) {
  log(`baseline: the suite through the proxy with no variant (seed ${seed}) …`);
  baseline = await runOnce(identity);
  log(
    `baseline: ${baseline.tests} tests, ${baseline.seconds.toFixed(1)} s; failed requirements: ${[...baseline.failed].join(', ') || 'none'}`,
  );
  for (const f of baseline.failures)
    log(`  baseline failure: ${f.test} [${f.requirements.join(', ')}] ${f.messages.join(' / ')}`);
}
const record = (i: number, variant: Variant, result: RunResult): void => {
  // Inconclusive tests are no verdict; a proxy fault is a defect of the variant itself and cannot count as a pass.
  const fresh = [...result.failed].filter((id) => !baseline?.failed.has(id));
  const broken = result.failures.some((f) => f.requirements.length === 0) || result.tests === 0;
  const passed = fresh.length === 0 && result.faults.length === 0 && !broken;
  outcomes.push({ ...result, variant, passed, broken });
  log(
    `[${i + 1}/${selected.length}] ${variant.name} (${variant.class}): ${passed ? 'passed' : broken ? 'ERRORED (tests failed without a verdict: a suite error, or a file that did not load)' : 'FAILED'} in ${result.seconds.toFixed(1)} s, ${variant.request || variant.response ? `${result.changed} answers changed` : 'server settings only'}, ${result.inconclusive?.length ?? '?'} inconclusive${fresh.length > 0 ? `; failed requirements: ${fresh.join(', ')}` : ''}${result.failed.size > fresh.length ? ` (and ${result.failed.size - fresh.length} that fail in the baseline too)` : ''}${result.faults.length > 0 ? `; ${result.faults.length} proxy fault(s)` : ''}`,
  );
  if (values.verbose || !passed) {
    for (const f of result.failures) {
      log(`      failed: ${f.test}${f.requirements.length > 0 ? ` [${f.requirements.join(', ')}]` : ''}`);
      for (const m of f.messages) log(`        ${m}`);
    }
    for (const f of result.faults.slice(0, 3)) log(`      fault: ${f.split('\n').slice(0, 3).join(' / ')}`);
  }
  if (values.verbose) for (const t of result.inconclusive ?? []) log(`      inconclusive: ${t}`);
};
if (jobs === 1) {
  for (const [i, v] of selected.entries()) record(i, v, await runOnce(v));
} else {
  await pool(selected, jobs, inChild, record);
  outcomes.sort((a, b) => selected.indexOf(a.variant) - selected.indexOf(b.variant));
}

const passed = outcomes.filter((o) => o.passed).length;
const minutes = (performance.now() - wall) / 60_000;
process.stdout.write(
  [
    '',
    '| variant | class | verdict | failed requirements | failed tests | inconclusive tests | answers changed | time |',
    '|---|---|---|---|---|---|---|---|',
    ...outcomes.map(
      (o) =>
        `| ${o.variant.name} | ${o.variant.class} | ${o.passed ? 'passed' : o.broken ? '**ERRORED**' : '**FAILED**'} | ${[...o.failed].join(', ') || '-'} | ${o.failures.length} | ${o.inconclusive?.length ?? '?'} | ${o.variant.request || o.variant.response ? o.changed : 'settings'} | ${o.seconds.toFixed(1)} s |${o.faults.length > 0 ? ` ${o.faults.length} proxy fault(s)` : ''}`,
    ),
    '',
    `Specificity: ${passed}/${outcomes.length} variants passed; wall time ${minutes.toFixed(1)} min${baseline ? `; the baseline fails ${baseline.failed.size} requirement(s) by itself: ${[...baseline.failed].join(', ') || 'none'} (not counted against the variants)` : ''}`,
    '',
  ].join('\n'),
);
const failing = outcomes.filter((o) => !o.passed);
const failed = failing.filter((o) => !o.broken);
if (failed.length > 0)
  process.stdout.write(`Failing (defects in the suite): ${failed.map((o) => o.variant.name).join(', ')}\n`);
const broken = failing.filter((o) => o.broken);
if (broken.length > 0)
  process.stdout.write(
    `Errored (tests failed without a verdict: suite errors, or files that did not load; see the log): ${broken.map((o) => o.variant.name).join(', ')}\n`,
  );
// Only whole sets are kept for `npm run mutants` to quote: all, a class, or the quick subset.
if (values.grep === undefined && values.only === undefined) {
  writeLastResult({
    at: new Date().toISOString(),
    seed,
    scope: values.quick ? 'the --quick subset' : values.class ? `class ${values.class}` : 'all',
    passed,
    total: outcomes.length,
    variants: outcomes.map((o) => ({
      name: o.variant.name,
      class: o.variant.class,
      passed: o.passed,
      failed: [...o.failed],
      seconds: Math.round(o.seconds),
    })),
  });
}
// Undici keep-alive sockets of the per-run agents must not keep the process up.
process.exit(failing.length === 0 ? 0 : 1);
