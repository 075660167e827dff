/**
 * The timed full runs against the embedded server, by CLI (compiled and sources, bench/report.ts
 * EmbeddedRuns): each CLI's spreads over its runs, and a bench.json of schema version 2 (runs by
 * the sources only) read as version 3 has them, so bench/render.ts renders either.
 */
import type { EmbeddedCli, EmbeddedRun } from './conformance-cost.ts';
import type { EmbeddedCliRuns, EmbeddedRuns, EmbeddedRunsV2 } from './report.ts';
import { spread } from './spread.ts';

/** What a version-2 file says of the compiled CLI: it was not run. */
const compiledCommandV2 = 'node dist/cli/main.js run --profile full';

/** The runs of `cli` among `runs`, summed up: spawn to exit and the suite's own duration, min/median/max. */
export function cliRuns(
  runs: readonly EmbeddedRun[],
  cli: EmbeddedCli,
  command: string,
  note?: string,
): EmbeddedCliRuns {
  const own = runs.filter((r) => r.cli === cli);
  const wallSeconds = spread(
    own.map((r) => r.wallSeconds),
    1,
  );
  const suiteSeconds = spread(
    own.flatMap((r) => (r.reportDurationSeconds === undefined ? [] : [r.reportDurationSeconds])),
    1,
  );
  return {
    command,
    ...(wallSeconds && { wallSeconds }),
    ...(suiteSeconds && { suiteSeconds }),
    ...(own.length === 0 && note !== undefined && { note }),
  };
}

/** `e` as schema version 3 has it; a version-2 value's runs were all by bin/tryon-conformance.js, the sources. */
export function embeddedRunsOf(e: EmbeddedRuns | EmbeddedRunsV2): EmbeddedRuns {
  if ('compiled' in e) return e;
  const runs = e.runs.map((r) => ({ ...r, cli: 'sources' as const }));
  return {
    runs,
    compiled: {
      command: compiledCommandV2,
      note: 'not measured: this bench.json (schema version 2) timed only the run from the sources',
    },
    sources: {
      command: runs[0]?.command ?? 'node bin/tryon-conformance.js run --profile full',
      ...(e.wallSeconds && { wallSeconds: e.wallSeconds }),
      ...(e.suiteSeconds && { suiteSeconds: e.suiteSeconds }),
    },
  };
}

/** The `cli` runs of `e` in the order they ran. */
export const runsOf = (e: EmbeddedRuns, cli: EmbeddedCli) => e.runs.filter((r) => r.cli === cli);
