/**
 * The sandbox's goals of issue 30: what each is, and its measured figure from the sandbox benchmark
 * (sandbox-bench.ts), for bench/goals.ts to judge like the others.
 */
import type { PairResult, SandboxBenchResult } from './sandbox-bench.ts';
import type { HeldRun } from './sandbox-load.ts';
import { spread, type Spread } from './spread.ts';

/** The held syncs the memory goal names. */
const heldGoalRequests = 10_000;

export type SandboxGoalId = 'pg-get-vs-sqlite' | 'sandbox-held-memory';

interface GoalBase {
  readonly id: SandboxGoalId;
  readonly what: string;
  readonly comparator: '>=' | '<=';
  readonly target: number;
  readonly unit: '×' | 'MiB';
}

type Measured = { readonly measured?: Spread; readonly note: string };

/** The held run of a pair's side, when it ran. */
export function heldOf(held: PairResult['heldA']): HeldRun | undefined {
  return 'error' in held ? undefined : held;
}

/** Each sandbox goal with its figure, or why it has none. */
export function sandboxGoalInputs(result: SandboxBenchResult | { error: string } | undefined): [GoalBase, Measured][] {
  const why =
    result === undefined
      ? 'the sandbox benchmark did not run'
      : 'error' in result
        ? `the sandbox benchmark failed: ${result.error}`
        : !result.ran
          ? result.note
          : undefined;
  const ok = result !== undefined && !('error' in result) && result.ran ? result : undefined;
  const get = ok?.single?.loads.find((l) => l.load === 'GET /tryons/{id}');
  const three = ok?.balanced && heldOf(ok.balanced.heldA);
  const allHeld = three !== undefined && three.started === three.requests && three.answeredEarly === 0;
  // The goal names 10,000: a smaller (quick) run is no figure for it.
  const enough = three !== undefined && three.requests >= heldGoalRequests;
  return [
    [
      {
        id: 'pg-get-vs-sqlite',
        what: 'GET /tryons/{id}, one PostgreSQL-backed instance ÷ one SQLite instance',
        comparator: '>=',
        target: 0.5,
        unit: '×',
      },
      why !== undefined || !get
        ? { note: why ?? 'no figure in this run' }
        : get.ratio
          ? {
              measured: get.ratio,
              note: `req/s ratio per round, ${get.perRound.length} rounds of ${ok?.options.seconds} s at ${get.connections} connections in alternating order; PG ${get.a.reqPerSec?.median ?? '–'} req/s, SQLite ${get.b.reqPerSec?.median ?? '–'} req/s`,
            }
          : { note: 'no clean round (an answer other than 200 in every round)' },
    ],
    [
      {
        id: 'sandbox-held-memory',
        what: '10,000 held sync requests across 3 instances behind haproxy, RSS of each instance',
        comparator: '<=',
        target: 250,
        unit: 'MiB',
      },
      why !== undefined || !three
        ? { note: why ?? 'the held run across 3 instances failed' }
        : {
            ...heldSpread(allHeld && enough ? three : undefined),
            note: !enough
              ? `a run of ${three.requests} held syncs (the goal names ${heldGoalRequests.toLocaleString('en-US')})`
              : allHeld
                ? `min/median/max over the 3 instances of the highest RSS read while all ${three.requests} were held (ramp ${Math.round(three.rampMs / 1000)} s)`
                : `only ${three.started} of ${three.requests} were held at once (${three.answeredEarly} answered early)`,
          },
    ],
  ];
}

function heldSpread(run: HeldRun | undefined): { measured?: Spread } {
  const measured =
    run &&
    spread(
      run.instances.map((i) => i.rssHeldMiB),
      1,
    );
  return measured ? { measured } : {};
}
