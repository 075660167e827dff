/**
 * Runs the conformance suite against each hostile target (tests/hostile/hostile-servers.ts) the way a
 * user would against a real base URL without test control: one fake `vto_live_…` key, no control,
 * no fixture host, a credit budget of 2, profile quick. Asserts that every run FINISHES within the
 * bound, with the verdict 1 (conformance failures) or 2 (nothing could be judged), and that nothing crashed: no exception out of
 * the run, no unhandled rejection, no uncaught exception. Prints a table with wall times.
 *
 * Two variants of each target: `strict` misbehaves on every request, GET /account included, so the
 * suite stops where it connects (it reads the balance before it spends anything); `past-connect`
 * answers GET /account with `{"credits": 2}` and misbehaves on everything else, so every test
 * meets the misbehaviour.
 *
 *   npx tsx tests/hostile/run-hostile.ts [--only garbage-json,drip] [--variant strict|past-connect|both]
 *                                        [--bound-minutes 10] [--seed N] [--grep pattern]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { TestModule } from 'vitest/node';
import { runSuite, verdict } from '../../src/run/run-suite.ts';
import type { SuiteConfig } from '../../src/suite/config.ts';
import { hostileKinds, startHostile } from './hostile-servers.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    'bound-minutes': { type: 'string' },
    seed: { type: 'string' },
    grep: { type: 'string' },
    variant: { type: 'string', default: 'both' },
  },
});
const variants = (values.variant === 'both' ? ['strict', 'past-connect'] : [values.variant]) as Array<
  'strict' | 'past-connect'
>;
if (!variants.every((v) => v === 'strict' || v === 'past-connect'))
  throw new Error(`--variant is strict, past-connect or both, not ${values.variant}`);
const boundMs = Number(values['bound-minutes'] ?? 10) * 60_000;
const seed = Number(values.seed ?? 42);
const kinds = values.only ? hostileKinds.filter((k) => values.only!.split(',').includes(k.name)) : hostileKinds;
if (kinds.length === 0)
  throw new Error(`no hostile target named ${values.only}; known: ${hostileKinds.map((k) => k.name).join(', ')}`);
const silent = new URL('../mutants/silent-reporter.ts', import.meta.url).pathname;

/** Crashes of the process while a run is going: they must not happen. */
const crashes: string[] = [];
process.on('unhandledRejection', (reason) =>
  crashes.push(`unhandled rejection: ${String((reason as Error)?.stack ?? reason).split('\n')[0]}`),
);
process.on('uncaughtException', (error) =>
  crashes.push(`uncaught exception: ${String(error.stack ?? error).split('\n')[0]}`),
);

interface Row {
  readonly name: string;
  readonly variant: string;
  readonly does: string;
  readonly outcome: 'finished' | 'HUNG' | 'CRASHED';
  readonly verdict: number | undefined;
  readonly tests: { passed: number; failed: number; skipped: number };
  readonly requests: number;
  readonly seconds: number;
  readonly slowest: string;
  readonly note: string;
}

function count(modules: readonly TestModule[]): Row['tests'] & { slowest: string } {
  const tests = { passed: 0, failed: 0, skipped: 0 };
  let slowest = { name: '-', ms: 0 };
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') tests.passed++;
      else if (state === 'failed') tests.failed++;
      else tests.skipped++;
      const ms = test.diagnostic()?.duration ?? 0;
      if (ms > slowest.ms) slowest = { name: test.name, ms };
    }
  }
  return { ...tests, slowest: `${(slowest.ms / 1000).toFixed(0)} s: ${slowest.name.slice(0, 70)}` };
}

const rows: Row[] = [];
const wall = performance.now();
const runs = variants.flatMap((variant) => kinds.map((kind) => ({ variant, kind })));
for (const { variant, kind } of runs) {
  const server = await startHostile(kind, { spareAccount: variant === 'past-connect' });
  const config: SuiteConfig = Object.freeze({
    baseUrl: `${server.origin}/api/v1`,
    apiKey: `vto_live_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`,
    creditBudget: 2,
    seed,
    profile: 'quick',
  });
  const started = performance.now();
  const crashesBefore = crashes.length;
  process.stderr.write(`${kind.name} (${variant}): ${kind.does} …\n`);
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<'HUNG'>((resolve) => (timer = setTimeout(() => resolve('HUNG'), boundMs)));
  try {
    const result = await Promise.race([runSuite(config, values.grep, [silent]), watchdog]);
    const seconds = (performance.now() - started) / 1000;
    if (result === 'HUNG') {
      rows.push({
        name: kind.name,
        variant,
        does: kind.does,
        outcome: 'HUNG',
        verdict: undefined,
        tests: { passed: 0, failed: 0, skipped: 0 },
        requests: server.requests(),
        seconds,
        slowest: '-',
        note: `still running after ${boundMs / 60_000} min`,
      });
      break; // a hung vitest cannot be stopped from here; report and stop.
    }
    const counted = count(result);
    const exit = verdict(result, config);
    const newCrashes = crashes.slice(crashesBefore);
    rows.push({
      name: kind.name,
      variant,
      does: kind.does,
      outcome: newCrashes.length > 0 ? 'CRASHED' : 'finished',
      verdict: exit,
      tests: counted,
      requests: server.requests(),
      seconds,
      slowest: counted.slowest,
      note: newCrashes.join('; '),
    });
  } catch (error) {
    rows.push({
      name: kind.name,
      variant,
      does: kind.does,
      outcome: 'CRASHED',
      verdict: undefined,
      tests: { passed: 0, failed: 0, skipped: 0 },
      requests: server.requests(),
      seconds: (performance.now() - started) / 1000,
      slowest: '-',
      note: String((error as Error).stack ?? error).split('\n')[0] ?? '',
    });
  } finally {
    clearTimeout(timer);
    await server.close();
  }
  const last = rows[rows.length - 1]!;
  process.stderr.write(
    `  ${last.outcome}, verdict ${last.verdict ?? '-'}, ${last.tests.failed} failed / ${last.tests.passed} passed / ${last.tests.skipped} skipped, ${last.seconds.toFixed(0)} s\n`,
  );
}

// 1: conformance failures; 2: nothing could be judged (every test inconclusive). Either is an honest end; 0 is not.
const ok = (r: Row) => r.outcome === 'finished' && (r.verdict === 1 || r.verdict === 2) && r.seconds * 1000 <= boundMs;
process.stdout.write(
  [
    '',
    `| target | variant | misbehaviour | outcome | verdict | failed / passed / skipped | requests | wall time | slowest test | ok |`,
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.variant} | ${r.does} | ${r.outcome}${r.note ? ` (${r.note})` : ''} | ${r.verdict ?? '-'} | ${r.tests.failed} / ${r.tests.passed} / ${r.tests.skipped} | ${r.requests} | ${r.seconds.toFixed(0)} s | ${r.slowest} | ${ok(r) ? 'yes' : '**NO**'} |`,
    ),
    '',
    `Bound per run: ${boundMs / 60_000} min. Total wall time ${((performance.now() - wall) / 60_000).toFixed(1)} min.`,
    '',
  ].join('\n'),
);
process.exit(rows.length === runs.length && rows.every(ok) ? 0 : 1);
