/**
 * Acceptance run of the suite issue: the suite against a target WITHOUT test control — the reference
 * server with its control token off, at the documented limits, with a second account's key and a
 * revoked key supplied — must be green, skip what it cannot exercise with reasons, and spend at most
 * its credit budget as counted by GET /account. It runs as `run` does, on the plan's grant of the
 * budget in the order of value, and prints the plan's estimate (credits, wall time) against what it did.
 *
 * `npx tsx tests/acceptance/run-without-control.ts [--budget N] [--profile quick|full]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { creditPlanOf, planOf } from '../../src/run/collect-plan.ts';
import { verdict } from '../../src/run/run-suite.ts';
import { SuiteSession } from '../../src/run/suite-session.ts';
import { againstEstimate, formatWallSeconds } from '../../src/report/cost.ts';
import { createReferenceServer } from '../../src/server/app.ts';
import { withDefaults } from '../../src/server/config.ts';
import { isLoopback } from '../../src/server/domain/image-fetch/address-policy.ts';
import { staticResolver } from '../../src/server/domain/image-fetch/resolver.ts';
import type { SuiteConfig } from '../../src/suite/config.ts';
import type { PlanEstimate } from '../../src/run/plan.ts';

const { values } = parseArgs({
  options: {
    budget: { type: 'string', default: '8' },
    profile: { type: 'string', default: 'quick' },
    seed: { type: 'string', default: '7' },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'tryon-no-control-'));
const dbPath = join(dir, 'reference.db');
const common = {
  dbPath,
  resolver: staticResolver({}),
  connectGuard: isLoopback,
  settings: withDefaults({ syncWaitMs: 5_000, generationLatencyMs: 200, slowGenerationMs: 8_000 }),
};

async function control(base: string, path: string, method = 'POST') {
  const res = await request(`${base}/_control${path}`, {
    method: method as 'POST',
    headers: { authorization: 'Bearer setup' },
  });
  return (await res.body.json()) as { accountId: string; apiKey: string };
}

// 1. Make the accounts through test control, then restart the same database without it.
const setup = await createReferenceServer({ ...common, controlToken: 'setup' });
const setupBase = await setup.listen('127.0.0.1', 0);
const primary = await control(setupBase, '/accounts');
const second = await control(setupBase, '/accounts');
const doomed = await control(setupBase, '/accounts');
await control(setupBase, `/accounts/${doomed.accountId}/revoke-key`);
await setup.close();

const server = await createReferenceServer(common);
const origin = await server.listen('127.0.0.1', 0);
const credits = async () =>
  (
    (await (
      await request(`${origin}/api/v1/account`, { headers: { authorization: `Bearer ${primary.apiKey}` } })
    ).body.json()) as { credits: number }
  ).credits;

const budget = Number(values.budget);
const config: SuiteConfig = {
  baseUrl: `${origin}/api/v1`,
  apiKey: primary.apiKey,
  secondApiKey: second.apiKey,
  revokedApiKey: doomed.apiKey,
  creditBudget: budget,
  seed: Number(values.seed),
  profile: values.profile === 'full' ? 'full' : 'quick',
};
const before = await credits();
// As `run` does: the plan, from the collected suite, grants the budget in the order of value.
const session = await SuiteSession.open({ config, reporters: ['default'], parallel: false });
const collected = await session.collect();
const plan = planOf(collected.tests, config);
const estimate: PlanEstimate = plan.estimate;
const started = performance.now();
const { modules } = await session.run(collected, { creditPlan: creditPlanOf(plan) });
const seconds = (performance.now() - started) / 1000;
const after = await credits();
await server.close();
rmSync(dir, { recursive: true, force: true });

let passed = 0;
let failed = 0;
const skipped: string[] = [];
for (const m of modules) {
  for (const t of m.children.allTests()) {
    const state = t.result().state;
    if (state === 'passed') passed++;
    else if (state === 'failed') failed++;
    else if (state === 'skipped') skipped.push(`${t.name}: ${t.meta().skipReason ?? '(no reason recorded)'}`);
  }
}
process.stdout.write(
  [
    '',
    `Without test control: ${passed} passed, ${failed} failed, ${skipped.length} skipped, in ${seconds.toFixed(0)} s`,
    `Credits on the primary account: ${before} before, ${after} after: spent ${before - after} of a budget of ${budget}`,
    `Planned against actual: credits ${estimate.credits} estimated, ${before - after} spent (${againstEstimate(estimate.credits, before - after, 'spent')}); wall time ${formatWallSeconds(estimate.wallSeconds)} estimated, ${formatWallSeconds(seconds)} taken (${againstEstimate(estimate.wallSeconds, seconds, 'took')})`,
    'Skipped, with reasons:',
    ...skipped.map((s) => `  - ${s}`),
    '',
  ].join('\n'),
);
process.exitCode =
  verdict(modules, config) === 0 &&
  before - after <= budget &&
  skipped.every((s) => !s.endsWith('(no reason recorded)'))
    ? 0
    : 1;
