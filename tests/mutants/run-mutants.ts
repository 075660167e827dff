/**
 * `npm run mutants`: runs the conformance suite against every mutant (a fresh embedded reference
 * server behind a mutating proxy each time) and prints which were killed, by which requirements,
 * in how long, and the mutation score. Exit 1 when any mutant survives.
 */
import { parseArgs } from 'node:util';
import type { TestModule } from 'vitest/node';
import { runSuite } from '../../src/cli/run.ts';
import type { RequirementId } from '../../src/spec/requirements.ts';
import { startEmbeddedTarget } from '../../src/suite/embedded-target.ts';
import { startMutatingProxy, type Mutation } from './mutating-proxy.ts';
import { mutants } from './mutants.ts';

interface Outcome {
  readonly mutant: Mutation;
  readonly killedBy: readonly RequirementId[];
  readonly seconds: number;
}

/** Requirements the run failed: failed tests' requirements and the requirements of error findings. */
export function failedRequirements(modules: readonly TestModule[]): Set<RequirementId> {
  const failed = new Set<RequirementId>();
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const meta = test.meta();
      if (test.result().state === 'failed') for (const id of meta.requirements ?? []) failed.add(id);
      for (const f of meta.findings ?? []) if (f.severity === 'error') failed.add(f.requirement);
    }
  }
  return failed;
}

async function runMutant(mutant: Mutation, seed: number, grep?: string): Promise<Outcome> {
  const started = performance.now();
  const embedded = await startEmbeddedTarget({ creditBudget: 10_000, seed, profile: 'quick' });
  const origin = new URL(embedded.config.baseUrl).origin;
  const proxy = await startMutatingProxy(origin, mutant);
  try {
    const config = {
      ...embedded.config,
      baseUrl: `${proxy.url}/api/v1`,
      control: { url: `${proxy.url}/_control`, token: embedded.config.control!.token },
    };
    const failed = failedRequirements(await runSuite(config, grep, ['dot']));
    return { mutant, killedBy: mutant.breaks.filter((id) => failed.has(id)), seconds: (performance.now() - started) / 1000 };
  } finally {
    await proxy.close();
    await embedded.close();
  }
}

const { values } = parseArgs({ options: { only: { type: 'string' }, seed: { type: 'string' }, grep: { type: 'string' } } });
const seed = Number(values.seed ?? 42);
const selected = values.only ? mutants.filter((m) => values.only!.split(',').includes(m.name)) : mutants;
const outcomes: Outcome[] = [];
for (const mutant of selected) outcomes.push(await runMutant(mutant, seed, values.grep));

const rows = outcomes.map((o) => `| ${o.mutant.name} | ${o.mutant.family} | ${o.killedBy.length > 0 ? 'killed' : 'SURVIVED'} | ${o.killedBy.join(', ') || '-'} | ${o.seconds.toFixed(1)} s |`);
const killed = outcomes.filter((o) => o.killedBy.length > 0).length;
process.stdout.write(
  ['', '| mutant | family | verdict | killed by | time |', '|---|---|---|---|---|', ...rows, '', `Mutation score: ${killed}/${outcomes.length} (${((100 * killed) / Math.max(1, outcomes.length)).toFixed(0)}%)`, ''].join('\n'),
);
process.exitCode = killed === outcomes.length ? 0 : 1;
