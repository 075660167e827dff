/**
 * The shape of reports/bench/bench.json (its JSON schema: bench/bench.schema.json), written by
 * bench/run.ts and rendered by bench/markdown.ts.
 */
import type { EmbeddedRun, PlanFigures, RemoteRun } from './conformance-cost.ts';
import type { EngineResult } from './engine.ts';
import type { Goal } from './goals.ts';
import type { HeldSyncResult } from './held-sync.ts';
import type { PrismResult } from './prism-vs-reference.ts';
import type { Spread } from './spread.ts';
import type { Versions } from './versions.ts';

export const benchSchemaPath = '../../bench/bench.schema.json';

export interface Failed {
  readonly error: string;
}

/** The full profile against the embedded server, run several times. */
export interface EmbeddedRuns {
  readonly runs: readonly EmbeddedRun[];
  /** Spawn to exit, over the runs. */
  readonly wallSeconds?: Spread;
  /** The suite's own duration (report.json durationMs), over the runs. */
  readonly suiteSeconds?: Spread;
}

export interface BenchReport {
  /** Relative to reports/bench/bench.json. */
  readonly $schema: string;
  readonly schemaVersion: 2;
  readonly startedAt: string;
  readonly wallSeconds: number;
  readonly quick: boolean;
  /** The commit measured, and whether src/ had uncommitted changes then. */
  /** The commit measured, whether src/ had uncommitted changes then, and which code the reference server ran (compiled or sources). */
  readonly code: { readonly commit: string; readonly srcDirty: boolean; readonly server?: string };
  readonly machine: {
    readonly cpus: number;
    readonly cpuModel: string;
    readonly memoryGiB: number;
    readonly node: string;
    readonly platform: string;
    readonly openFiles: { readonly soft: number; readonly hard: number } | null;
    /** The 1, 5 and 15 minute load averages when the run started and when it ended (a shared machine). */
    readonly loadAverage: { readonly start: readonly number[]; readonly end: readonly number[] };
  };
  readonly versions: Versions;
  /** The acceptance goals of issue 15, each with its measured median and verdict. */
  readonly goals: readonly Goal[];
  readonly prism: PrismResult | Failed;
  readonly heldSync: HeldSyncResult | Failed;
  readonly engine: EngineResult | Failed;
  readonly conformance: {
    readonly embeddedPlan: PlanFigures;
    readonly embedded: EmbeddedRuns | Failed;
    readonly remotePlan: PlanFigures;
    readonly remoteRun: RemoteRun;
  };
}

export const hasError = (x: object): x is Failed => 'error' in x && typeof (x as { error: unknown }).error === 'string';
