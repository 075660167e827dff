/**
 * The shape of reports/bench/bench.json (its JSON schema: bench/bench.schema.json), written by
 * bench/run.ts and rendered by bench/markdown.ts.
 */
import type { EmbeddedCli, EmbeddedRun, PlanFigures, RemoteRun } from './conformance-cost.ts';
import type { EngineResult } from './engine.ts';
import type { Goal } from './goals.ts';
import type { HeldSyncResult } from './held-sync.ts';
import type { PrismResult } from './prism-vs-reference.ts';
import type { ProxyBenchResult } from './proxy-bench.ts';
import type { SandboxBenchResult } from './sandbox-bench.ts';
import type { Spread } from './spread.ts';
import type { Versions } from './versions.ts';

export const benchSchemaPath = '../../bench/bench.schema.json';

export interface Failed {
  readonly error: string;
}

/** The runs of one CLI (bench/conformance-cost.ts embeddedClis), summed up. */
export interface EmbeddedCliRuns {
  /** The command line each of its runs had (the report directory as <tmp>). */
  readonly command: string;
  /** Spawn to exit, over its runs. */
  readonly wallSeconds?: Spread;
  /** The suite's own duration (report.json durationMs), over its runs. */
  readonly suiteSeconds?: Spread;
  /** Why it has no runs, when it has none. */
  readonly note?: string;
}

/**
 * The full profile against the embedded server, run several times by each CLI, interleaved
 * (compiled, sources, compiled, sources, …) with the same seed and flags (schema version 3).
 */
export interface EmbeddedRuns {
  /** In the order they ran. */
  readonly runs: readonly (EmbeddedRun & { readonly cli: EmbeddedCli })[];
  /** `node dist/cli/main.js run …`: the installed package's CLI (`npx tryon-conformance run`); the goal is judged on it. */
  readonly compiled: EmbeddedCliRuns;
  /** `node bin/tryon-conformance.js run …`: the sources through tsx, as `npm start` runs them in a clone. */
  readonly sources: EmbeddedCliRuns;
}

/** Schema version 2: the runs were all by bin/tryon-conformance.js (the sources); still read by bench/render.ts. */
export interface EmbeddedRunsV2 {
  readonly runs: readonly EmbeddedRun[];
  readonly wallSeconds?: Spread;
  readonly suiteSeconds?: Spread;
}

export interface BenchReport {
  /** Relative to reports/bench/bench.json. */
  readonly $schema: string;
  /** 3 since the embedded run is timed by both CLIs; bench/render.ts still renders a file of version 2. */
  readonly schemaVersion: 2 | 3;
  readonly startedAt: string;
  readonly wallSeconds: number;
  readonly quick: boolean;
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
  /** The judging proxy against a direct connection and a bare reply-from proxy (issue 29); absent in older reports. */
  readonly proxy?: ProxyBenchResult | Failed;
  /** PostgreSQL against SQLite, 3 instances against 1 behind haproxy (issue 30); absent in older reports. */
  readonly sandbox?: SandboxBenchResult | Failed;
  readonly conformance: {
    readonly embeddedPlan: PlanFigures;
    /** EmbeddedRunsV2 only in a file of schema version 2 (bench/embedded-runs.ts reads either). */
    readonly embedded: EmbeddedRuns | EmbeddedRunsV2 | Failed;
    readonly remotePlan: PlanFigures;
    readonly remoteRun: RemoteRun;
  };
}

export const hasError = (x: object): x is Failed => 'error' in x && typeof (x as { error: unknown }).error === 'string';
