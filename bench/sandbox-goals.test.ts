/** The held-sync memory goal of the sandbox (sandbox-goals.ts): a figure only when all 10,000 were held at once. */
import { describe, expect, it } from 'vitest';
import type { SandboxBenchResult } from './sandbox-bench.ts';
import { sandboxGoalInputs } from './sandbox-goals.ts';
import type { HeldRun } from './sandbox-load.ts';

function resultWith(held: Partial<HeldRun>): SandboxBenchResult {
  const run: HeldRun = {
    requests: 10_000,
    via: 'h2c',
    started: 10_000,
    answeredEarly: 0,
    earlyStatuses: {},
    rampMs: 90_000,
    instances: [150, 160, 170].map((mib, i) => ({ name: `i${i}`, rssIdleMiB: 100, rssHeldMiB: mib })),
    ...held,
  };
  return {
    ran: true,
    startedAt: '2026-11-27T00:00:00.000Z',
    server: 'compiled',
    flags: [],
    options: { rounds: 1, seconds: 1, connections: 1, heldRequests: run.requests },
    balanced: { a: '3 instances', b: '1 instance', loads: [], heldA: run, heldB: run },
  };
}

const heldGoal = (result: SandboxBenchResult) =>
  sandboxGoalInputs(result).find(([g]) => g.id === 'sandbox-held-memory')!;

describe('the sandbox held-sync memory goal', () => {
  it('takes the RSS of each of the 3 instances when all 10,000 were held and none answered early', () => {
    const [, measured] = heldGoal(resultWith({}));
    expect(measured.measured).toMatchObject({ min: 150, median: 160, max: 170 });
  });

  it.each([
    ['a quick run of 300', { requests: 300, started: 300 }, /a run of 300 held syncs/],
    ['a run where some were answered early', { started: 9_827, answeredEarly: 2_750 }, /only 9827 of 10000/],
  ])('gives no figure for %s', (_, held, note) => {
    const [, measured] = heldGoal(resultWith(held));
    expect(measured.measured).toBeUndefined();
    expect(measured.note).toMatch(note);
  });
});
