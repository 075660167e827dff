/**
 * Renders bench.json as reports/bench/bench.md: the goals of issue 15 first, then the machine and
 * versions, then one section per benchmark (bench/markdown-servers.ts, bench/markdown-cost.ts).
 */
import type { EngineResult } from './engine.ts';
import type { Goal } from './goals.ts';
import type { HeldSyncResult } from './held-sync.ts';
import { costSection } from './markdown-cost.ts';
import { proxySection } from './proxy-markdown.ts';
import { sandboxSection } from './sandbox-markdown.ts';
import { fmt, fmtSpread, seconds } from './markdown-format.ts';
import { serversSection } from './markdown-servers.ts';
import type { BenchReport } from './report.ts';
import { hasError } from './report.ts';
import { spread } from './spread.ts';

export function renderMarkdown(report: BenchReport): string {
  const lines: string[] = [
    '# Benchmarks of the reference server',
    '',
    `Measured ${report.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} at commit \`${report.code.commit}\`${report.code.srcDirty ? ' (with uncommitted changes in src/)' : ''} by \`npm run bench\` in ${seconds(report.wallSeconds)}${report.quick ? ' — **BENCH_QUICK: a smoke run, not figures to quote**' : ''}. ` +
      'Every figure is min / median / max over the interleaved runs; **ratios are measured side by side in one run** (each round runs the targets back to back, and a ratio is taken per round before its median), which is what to quote: absolute figures on a shared 2-core machine move with its load. ' +
      'Every server and every load runs on 127.0.0.1 on this one machine, the load generator sharing the cores with the server under test.',
    '',
    ...goalsSection(report.goals),
    ...machineSection(report),
    ...serversSection(report.prism),
    ...heldSection(report.heldSync),
    ...engineSection(report.engine),
    ...costSection(report.conformance),
    ...proxySection(report.proxy),
    ...sandboxSection(report.sandbox),
  ];
  return `${lines.join('\n')}\n`;
}

const comparators: Record<Goal['comparator'], string> = { '>=': '≥', '<': '<', '<=': '≤' };

function goalValue(n: number, unit: Goal['unit']): string {
  return unit === '×' ? `${n.toFixed(2)}×` : `${fmt(n, unit === 's' ? 1 : unit === 'ms' ? 2 : 0)} ${unit}`;
}

/** The acceptance goals of issue 15: target, measured median (min–max), and met or not by how much. */
export function goalsSection(goals: readonly Goal[]): string[] {
  const out = ['## Goals', '', '| Goal | Target | Median | Min – max (n) | Verdict |', '|---|--:|--:|--:|---|'];
  for (const g of goals) {
    const m = g.measured;
    let verdict = '**not measured**';
    if (g.verdict !== 'not measured' && g.margin !== undefined && g.marginPercent !== undefined) {
      const amount = `${goalValue(Math.abs(g.margin), g.unit)} (${Math.abs(g.marginPercent).toFixed(0)} %)`;
      const side =
        g.comparator === '>='
          ? g.margin >= 0
            ? 'above the target by'
            : 'short by'
          : g.margin >= 0
            ? 'under the target by'
            : 'over by';
      verdict = `${g.verdict === 'met' ? '**met**' : '**not met**'}: ${side} ${amount}`;
    }
    out.push(
      `| ${g.what} | ${comparators[g.comparator]} ${goalValue(g.target, g.unit)} | ${m ? goalValue(m.median, g.unit) : '–'} | ${m ? `${goalValue(m.min, g.unit)} – ${goalValue(m.max, g.unit)} (${m.n})` : '–'} | ${verdict} |`,
    );
  }
  out.push('', ...goals.map((g) => `- ${g.what}: ${g.note}.`), '');
  return out;
}

function machineSection(report: BenchReport): string[] {
  const m = report.machine;
  const v = report.versions;
  const load = (xs: readonly number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
  return [
    '## Machine and versions',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${m.cpus} × ${m.cpuModel} |`,
    `| Memory | ${m.memoryGiB} GiB |`,
    `| Platform | ${m.platform}, open-files limit ${m.openFiles ? `${fmt(m.openFiles.soft)} (hard ${fmt(m.openFiles.hard)})` : 'unknown'} |`,
    `| Load average (1 / 5 / 15 min) | ${load(m.loadAverage.start)} at the start, ${load(m.loadAverage.end)} at the end |`,
    `| Node | ${v.node} |`,
    `| fastify | ${v.fastify} |`,
    `| autocannon | ${v.autocannon} |`,
    `| Stoplight Prism | ${v.prism} |`,
    `| better-sqlite3 | ${v.betterSqlite3} |`,
    `| sharp (libvips) | ${v.sharp} (${v.libvips}) |`,
    `| vitest, tsx | ${v.vitest}, ${v.tsx} |`,
    `| Commit | \`${report.code.commit}\`${report.code.srcDirty ? ' with uncommitted changes in src/' : ''} |`,
    ...(report.code.server ? [`| Reference server's code | ${report.code.server} |`] : []),
    '',
  ];
}

function heldSection(result: BenchReport['heldSync']): string[] {
  const out = ['## 2. Held sync connections', ''];
  if (hasError(result)) return [...out, `Not measured: ${result.error}`, ''];
  const r: HeldSyncResult = result;
  out.push(
    `Concurrent \`POST /tryons/sync\`, each with its own Idempotency-Key, started from an uploaded person photo marked \`slow-generation\` (${r.images.person}) and a garment (${r.images.garment}), on one account with credits and limits raised. ` +
      'Sent in batches of 250 through one undici Agent, each batch held by the server before the next; the server (a child process) reports RSS, V8 heap, held requests and event-loop delay (`monitorEventLoopDelay`, 10 ms resolution, shown as the delay beyond it) over IPC. ' +
      `Mode **202**: the sync wait (${holdOf(r, '202')}) ends before the scripted generation (10 min), so every request is answered 202 when its wait runs out — the cost of holding and releasing, no image is made. ` +
      `Mode **200**: a sync wait of 60 s and a scripted generation of ${holdOf(r, '200')}, so every try-on finishes within the wait and is answered 200 \`success\` — answering them then waits on the engine. ` +
      'The hold is long enough for the whole ramp to be held at once; a level where it was not says so in its note.',
    '',
    '| Conns | Mode | Held at peak | Ramp s | Answers | RSS idle → peak MiB | RSS per held KiB | Heap peak MiB | ELD held p50 / p99 / max ms | ELD answering p99 / max ms | First → last answer s | Last due → last answer s | Beyond the hold p50 / p99 ms |',
    '|--:|---|--:|--:|---|---|--:|--:|---|---|--:|--:|---|',
  );
  for (const l of r.levels) {
    if (!l.ran) {
      out.push(`| ${fmt(l.connections)} | ${l.mode} | not run: ${l.note ?? ''} |||||||||||`);
      continue;
    }
    const answers = Object.entries(l.statuses ?? {})
      .map(([s, n]) => `${s}: ${fmt(n)}`)
      .join(', ');
    const errors = Object.entries(l.errors ?? {})
      .map(([s, n]) => `${s}: ${fmt(n)}`)
      .join(', ');
    out.push(
      `| ${fmt(l.connections)} | ${l.mode} | ${fmt(l.peakHeld)} | ${fmt((l.rampMs ?? 0) / 1000, 1)} | ${answers}${errors ? `; errors ${errors}` : ''} | ${fmt(l.rssIdleMiB)} → ${fmt(l.rssPeakMiB)} | ${fmt(l.rssPerHeldKiB, 1)} | ${fmt(l.heapPeakMiB)} | ${fmt(l.eldHoldMs?.p50, 1)} / ${fmt(l.eldHoldMs?.p99, 1)} / ${fmt(l.eldHoldMs?.max, 1)} | ${fmt(l.eldDrainMs?.p99, 1)} / ${fmt(l.eldDrainMs?.max, 1)} | ${fmt((l.answerAllMs ?? 0) / 1000, 1)} | ${fmt((l.drainAfterLastDueMs ?? 0) / 1000, 1)} | ${fmt(l.extraLatencyMs?.p50)} / ${fmt(l.extraLatencyMs?.p99)} |`,
    );
  }
  const notes = r.levels.filter((l) => l.ran && l.note);
  if (notes.length > 0) out.push('', ...notes.map((l) => `- ${fmt(l.connections)} (${l.mode}): ${l.note ?? ''}`));
  out.push('', ...heldSpreads(r));
  const skipped = r.levels.filter((l) => !l.ran);
  out.push(
    '',
    `Open-files limit of the load process: ${r.openFilesLimit ? `${r.openFilesLimit.soft} (hard ${r.openFilesLimit.hard})` : 'unknown'}. ${skipped.length === 0 ? 'Every level ran.' : `Not run: ${skipped.map((l) => `${l.connections} (${l.note ?? ''})`).join('; ')}.`} ` +
      "RSS per held request is (peak − idle) ÷ held, and includes each try-on's stored state in the in-memory store. " +
      'In mode 202 answers arrive as each request\'s own wait ends, so first → last answer is about the ramp; "beyond the hold" is each request\'s time minus the scripted hold (it includes the time the request waited to be read during the ramp).',
    '',
  );
  return out;
}

/** The hold of a mode's levels, from their settings: "40 s at 10,000 connections; 13 s at 1,000". */
function holdOf(r: HeldSyncResult, mode: '200' | '202'): string {
  const held = r.levels.filter((l) => l.mode === mode && l.settings);
  const texts = [
    ...new Set(
      held.map(
        (l) =>
          `${fmt(((mode === '202' ? l.settings?.syncWaitMs : l.settings?.slowGenerationMs) ?? 0) / 1000, 1)} s at ${fmt(l.connections)} connections`,
      ),
    ),
  ];
  return texts.length === 0 ? 'per level' : texts.join('; ');
}

/** Min/median/max over the runs of each level (connections × mode) that ran. */
function heldSpreads(r: HeldSyncResult): string[] {
  const groups = new Map<string, HeldSyncResult['levels'][number][]>();
  for (const l of r.levels.filter((x) => x.ran))
    groups.set(`${l.connections}|${l.mode}`, [...(groups.get(`${l.connections}|${l.mode}`) ?? []), l]);
  if (groups.size === 0) return [];
  const col = (
    ls: HeldSyncResult['levels'][number][],
    pick: (l: HeldSyncResult['levels'][number]) => number | undefined,
    digits: number,
  ) =>
    fmtSpread(
      spread(
        ls.map((l) => pick(l) ?? Number.NaN),
        digits,
      ),
      digits,
    );
  const out = [
    'Each level over its runs, median (min–max):',
    '',
    '| Conns | Mode | Runs | RSS peak MiB | RSS per held KiB | Heap peak MiB | Ramp s | ELD held p99 ms | First → last answer s |',
    '|--:|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const ls of groups.values()) {
    const l0 = ls[0] as HeldSyncResult['levels'][number];
    out.push(
      `| ${fmt(l0.connections)} | ${l0.mode} | ${ls.length} | ${col(ls, (l) => l.rssPeakMiB, 1)} | ${col(ls, (l) => l.rssPerHeldKiB, 1)} | ${col(ls, (l) => l.heapPeakMiB, 1)} | ${col(ls, (l) => (l.rampMs === undefined ? undefined : l.rampMs / 1000), 1)} | ${col(ls, (l) => l.eldHoldMs?.p99, 1)} | ${col(ls, (l) => (l.answerAllMs === undefined ? undefined : l.answerAllMs / 1000), 1)} |`,
    );
  }
  return out;
}

function engineSection(result: BenchReport['engine']): string[] {
  const out = ['## 3. Engine and end-to-end latency', ''];
  if (hasError(result)) return [...out, `Not measured: ${result.error}`, ''];
  const r: EngineResult = result;
  out.push(
    'The composite engine run directly (`createCompositeEngine({ latencyMs: 0 }).generate`), one generation at a time, with the default 600×600 garment. The engine caps the result at 2,048 px on the longer side, so the 4 MP photo is resized down first. No Prism ratio: Prism generates nothing.',
    '',
    '| Person photo | Input | Runs | p50 ms | p99 ms | Min ms | Max ms | Result bytes |',
    '|---|---|--:|--:|--:|--:|--:|--:|',
    ...r.engine.map(
      (e) =>
        `| ${e.label} | ${e.person} | ${e.n} | ${fmt(e.p50Ms, 1)} | ${fmt(e.p99Ms, 1)} | ${fmt(e.minMs, 1)} | ${fmt(e.maxMs, 1)} | ${fmt(e.resultBytes)} |`,
    ),
    '',
    `Start to success end to end, through \`POST /tryons/sync\` (the answer comes when the try-on is final, so no polling interval blurs it): ${r.endToEndSettings}.`,
    '',
    '| Load | Starts | Answers | p50 ms | p99 ms | Min ms | Max ms | Answered per s | Wall s |',
    '|---|--:|---|--:|--:|--:|--:|--:|--:|',
    ...r.endToEnd.map(
      (e) =>
        `| ${e.label}: ${e.load} | ${fmt(Object.values(e.statuses).reduce((a, b) => a + b, 0))} | ${Object.entries(
          e.statuses,
        )
          .map(([s, n]) => `${s}: ${fmt(n)}`)
          .join(
            ', ',
          )} | ${fmt(e.p50Ms, 1)} | ${fmt(e.p99Ms, 1)} | ${fmt(e.minMs, 1)} | ${fmt(e.maxMs, 1)} | ${fmt(e.finishedPerSec, 1)} | ${fmt(e.wallMs / 1000, 1)} |`,
    ),
    '',
    'Paced at the documented limit, latency is one engine run plus the server\'s overhead. At 100 starts/s the engine (4 generation slots, sharp on 2 cores) cannot keep up: answers come at the rate in "answered per s" and the queue — not the server\'s HTTP path — sets the latency. p99 of a handful of paced starts is their maximum.',
    '',
  );
  return out;
}
