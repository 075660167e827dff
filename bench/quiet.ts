/**
 * Waits until the servers of benchmark 1 are quiet before the next run starts, so that one target
 * still working off its backlog (a slow server keeps answering requests autocannon already gave up
 * on, and Prism keeps writing its log) does not eat into the next target's run on the shared cores.
 */
import { readFileSync } from 'node:fs';
import { sleep } from './common.ts';

/** CPU time (user + system) of a process in clock ticks, from /proc (Linux); undefined elsewhere or when gone. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces) start at ") "; utime and stime are the 12th and 13th of them.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** CPU time of a process in µs (clock ticks of 10 ms, USER_HZ 100 on Linux); NaN when unknown. */
export function cpuMicros(pid: number | undefined): number {
  const ticks = pid === undefined ? undefined : cpuTicks(pid);
  return ticks === undefined ? Number.NaN : ticks * 10_000;
}

/**
 * Resolves once every process of `pids` used at most `maxTicks` clock ticks (Linux: 10 ms each) of
 * CPU over one `intervalMs`, or after `maxMs`, whichever comes first; returns the time waited (ms).
 */
export async function waitQuiet(
  pids: readonly number[],
  options: { intervalMs?: number; maxTicks?: number; maxMs?: number } = {},
): Promise<number> {
  const { intervalMs = 200, maxTicks = 1, maxMs = 3_000 } = options;
  const started = performance.now();
  let before = pids.map(cpuTicks);
  if (before.every((t) => t === undefined)) return 0;
  while (performance.now() - started < maxMs) {
    await sleep(intervalMs);
    const now = pids.map(cpuTicks);
    const busy = now.some((t, i) => t !== undefined && before[i] !== undefined && t - (before[i] as number) > maxTicks);
    if (!busy) break;
    before = now;
  }
  return Math.round(performance.now() - started);
}
