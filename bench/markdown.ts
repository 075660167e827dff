/** Renders bench.json as reports/bench/bench.md: one section per benchmark, ratios to Prism where one applies. */
import type { BenchReport } from './run.ts';
import type { CellResult, EndpointName, PrismResult, TargetName } from './prism-vs-reference.ts';
import type { HeldSyncResult } from './held-sync.ts';
import type { EngineResult } from './engine.ts';

const fmt = (n: number | undefined, digits = 0): string =>
  n === undefined || !Number.isFinite(n) ? '–' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ratio = (a: number | undefined, b: number | undefined): string =>
  a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || a === 0 || b === 0 ? '–' : `${(a / b).toFixed(2)}×`;
/** autocannon's latencies are whole milliseconds: 0 means under 1 ms. */
const lat = (n: number | undefined): string => (n === 0 ? '<1' : fmt(n, 1));
const seconds = (s: number | undefined): string => {
  if (s === undefined || !Number.isFinite(s)) return '–';
  const m = Math.floor(s / 60);
  return m > 0 ? `${m} min ${Math.round(s - m * 60)} s` : `${Math.round(s * 10) / 10} s`;
};
const hasError = (x: object): x is { readonly error: string } => 'error' in x && typeof (x as { error: unknown }).error === 'string';

export function renderMarkdown(report: BenchReport): string {
  const m = report.machine;
  const lines: string[] = [
    '# Benchmarks of the reference server',
    '',
    `Run ${report.startedAt}${report.quick ? ' (**BENCH_QUICK: a smoke run, not figures to quote**)' : ''} at commit ${report.code.commit}${report.code.srcDirty ? ' (with uncommitted changes in src/)' : ''} by \`npm run bench\` in ${seconds(report.wallSeconds)} on ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node} (${m.platform}), open-files limit ${m.openFiles ? `${m.openFiles.soft}/${m.openFiles.hard}` : 'unknown'}. ` +
      'Every server and every load runs on 127.0.0.1 on this one machine: the load generator shares the 2 cores with the server under test, so the absolute figures are a floor; the ratios compare like with like.',
    '',
  ];
  lines.push(...prismSection(report.prism), ...heldSection(report.heldSync), ...engineSection(report.engine), ...conformanceSection(report.conformance));
  return `${lines.join('\n')}\n`;
}

function find(cells: readonly CellResult[], endpoint: EndpointName, connections: number, target: TargetName): CellResult | undefined {
  return cells.find((c) => c.endpoint === endpoint && c.connections === connections && c.target === target);
}

function prismSection(result: BenchReport['prism']): string[] {
  const out = ['## 1. Reference server vs Stoplight Prism', ''];
  if (hasError(result)) return [...out, `Not measured: ${result.error}`, ''];
  const r: PrismResult = result;
  out.push(
    `autocannon ${r.durationSeconds} s per run, ${r.rounds} runs per target and cell, interleaved (order reference, Prism, Prism silent, then reversed); figures are the means of the runs. ` +
      `Prism ${r.prism.version} (\`${r.prism.command}\`), up in ${fmt(r.prism.startupMs)} ms. ` +
      'The reference server runs in a child process with its logger off; each cell uses a fresh account whose limits were raised through test control. ' +
      '**Ratio = reference ÷ Prism**: above 1× the reference server serves more requests per second; for latency, below 1× it answers faster. ' +
      'autocannon measures latency in whole milliseconds (a mean of two runs can end in .5; "<1" is under a millisecond, and no ratio is given then).',
    '',
    'GET /tryons/{id} reads a try-on that exists on the reference server (Prism answers its example); POST /tryons sends `consent: false` with an Idempotency-Key: the reference server answers 403 CONSENT_REQUIRED, Prism fails request validation (`consent` is `const: true`) and answers its 422 example.',
    '',
  );
  const endpoints: EndpointName[] = ['GET /tryons/{id}', 'POST /tryons (consent false)', 'GET /account'];
  for (const [other, title] of [
    ['prism', 'Against Prism as `npx prism mock` runs it (default `info` logging, to a file)'],
    ['prism-silent', 'Against Prism with `-v silent` (no logging, like the reference server)'],
  ] as const) {
    out.push(`### ${title}`, '', '| Endpoint | Conns | Ref req/s | Prism req/s | Ratio | Ref p50 ms | Prism p50 ms | Ratio | Ref p99 ms | Prism p99 ms | Ratio |', '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
    for (const endpoint of endpoints) {
      for (const connections of [10, 100]) {
        const a = find(r.cells, endpoint, connections, 'reference');
        const b = find(r.cells, endpoint, connections, other);
        out.push(
          `| ${endpoint} | ${connections} | ${fmt(a?.reqPerSec)} | ${fmt(b?.reqPerSec)} | **${ratio(a?.reqPerSec, b?.reqPerSec)}** | ${lat(a?.p50Ms)} | ${lat(b?.p50Ms)} | ${ratio(a?.p50Ms, b?.p50Ms)} | ${lat(a?.p99Ms)} | ${lat(b?.p99Ms)} | ${ratio(a?.p99Ms, b?.p99Ms)} |`,
        );
      }
    }
    out.push('');
  }
  out.push('### Responses checked', '', 'Every response counted by status; "unexpected" is any status other than the expected one, "errors" are connection errors and timeouts.', '');
  out.push('| Endpoint | Conns | Target | Expected | Status counts | Unexpected | Errors |', '|---|--:|---|--:|---|--:|--:|');
  for (const c of r.cells) {
    const counts = Object.entries(c.statusCounts).map(([code, n]) => `${code}: ${fmt(n)}`).join(', ');
    out.push(`| ${c.endpoint} | ${c.connections} | ${c.target} | ${c.expectedStatus} | ${counts} | ${c.unexpected === 0 ? '0' : `**${fmt(c.unexpected)}**`} | ${c.errors === 0 ? '0' : `**${fmt(c.errors)}**`} |`);
  }
  out.push('');
  out.push('### Where the reference server spends its time on GET /tryons/{id}', '');
  if (hasError(r.profile)) {
    out.push(`Not profiled: ${r.profile.error}`, '');
    return out;
  }
  const p = r.profile;
  out.push(
    `CPU profile of the server process (V8 inspector Profiler in the child, started after warm-up, asked for a sample every 250 µs; it took ${fmt(p.samples)} samples, one per ${fmt(p.meanIntervalUs)} µs on average, as the sampler shares the 2 cores with the load) under ${p.load} (${fmt(p.reqPerSec)} req/s while profiled): ${fmt(p.busyMs)} ms busy of ${fmt(p.sampledMs)} ms (idle ${p.idleShare} %). ` +
      `Self time = samples × the mean interval; top 10 functions, share of the busy samples; positions are the TypeScript lines (mapped through tsx's source maps). The raw profile is \`${p.file}\` (open it in Chrome DevTools or speedscope).`,
    '',
    '| # | Function | Where | Area | Self ms | Share |',
    '|--:|---|---|---|--:|--:|',
    ...p.topFunctions.map((f, i) => `| ${i + 1} | \`${f.name}\` | ${f.where ? `\`${f.where}\`` : (nativeFrames[f.name] ?? '(native)')} | ${f.area} | ${fmt(f.selfMs, 1)} | ${f.share.toFixed(1)} % |`),
    '',
    ...limiterNote(r),
    'By area (package, source file, or V8/Node internals):',
    '',
    '| Area | Self ms | Share |',
    '|---|--:|--:|',
    ...p.topAreas.map((a) => `| ${a.area} | ${fmt(a.selfMs, 1)} | ${a.share.toFixed(1)} % |`),
    '',
    "This repo's files by inclusive time (share of the busy samples with the file anywhere on the stack; a request's hooks and handler run from fastify, so these overlap only when one of these files calls another):",
    '',
    '| File | Inclusive share |',
    '|---|--:|',
    ...p.ownFilesInclusive.filter((f) => f.share > 0).map((f) => `| \`${f.file}\` | ${f.share.toFixed(1)} % |`),
    '',
  );
  return out;
}

/** When the rate limiter leads the profile, sets it beside the one route that has no rate limit. */
function limiterNote(r: PrismResult): string[] {
  if (hasError(r.profile)) return [];
  const limiter = r.profile.topAreas.find((a) => a.area.endsWith('rate-limiter.ts'));
  if (!limiter || limiter !== r.profile.topAreas[0]) return [];
  const account = find(r.cells, 'GET /account', 100, 'reference');
  const tryOn = find(r.cells, 'GET /tryons/{id}', 100, 'reference');
  return [
    `The rate limiter leads, with ${limiter.share.toFixed(1)} % of the busy time, under limits raised for the benchmark so that nothing is a 429. ` +
      `GET /account, the one route here without a rate limit, serves ${fmt(account?.reqPerSec)} req/s at 100 connections on the same server, against ${fmt(tryOn?.reqPerSec)} for GET /tryons/{id}.`,
    '',
  ];
}

/** What the native frames of a Node server profile are. */
const nativeFrames: Record<string, string> = {
  writev: 'socket write of a response (libuv; on loopback the kernel delivers it to the client inside this call)',
  writeUtf8String: 'socket write of a response',
  get: 'better-sqlite3 `Statement#get` (one SQLite query)',
  run: 'better-sqlite3 `Statement#run`',
  Hash: 'node:crypto `createHash` (the API key check hashes the key)',
  digest: 'node:crypto digest',
  '(garbage collector)': 'V8 garbage collection',
  '(program)': 'V8 and native code outside JavaScript',
};

function heldSection(result: BenchReport['heldSync']): string[] {
  const out = ['## 2. Held sync connections', ''];
  if (hasError(result)) return [...out, `Not measured: ${result.error}`, ''];
  const r: HeldSyncResult = result;
  out.push(
    `Concurrent \`POST /tryons/sync\`, each with its own Idempotency-Key, started from an uploaded person photo marked \`slow-generation\` (${r.images.person}) and a garment (${r.images.garment}), on one account with credits and limits raised. ` +
      'Sent in batches of 250 through one undici Agent, each batch held by the server before the next; the server (a child process) reports RSS, V8 heap, held requests and event-loop delay (`monitorEventLoopDelay`, 10 ms resolution, shown as the delay beyond it) over IPC. ' +
      'Mode **202**: the sync wait (8 s + 1.5 ms per connection) ends before the scripted generation (10 min), so every request is answered 202 when its wait runs out — the cost of holding and releasing, no image is made. ' +
      'Mode **200**: syncWaitMs 60 s and slowGenerationMs 8 s + 1.5 ms per connection, so every try-on finishes within the wait and is answered 200 `success` — answering them then waits on the engine.',
    '',
    '| Conns | Mode | Held at peak | Ramp s | Answers | RSS idle → peak MiB | RSS per held KiB | Heap peak MiB | ELD held p50 / p99 / max ms | ELD answering p99 / max ms | First → last answer s | Last due → last answer s | Beyond the hold p50 / p99 ms |',
    '|--:|---|--:|--:|---|---|--:|--:|---|---|--:|--:|---|',
  );
  for (const l of r.levels) {
    if (!l.ran) {
      out.push(`| ${fmt(l.connections)} | ${l.mode} | not run: ${l.note ?? ''} |||||||||||`);
      continue;
    }
    const answers = Object.entries(l.statuses ?? {}).map(([s, n]) => `${s}: ${fmt(n)}`).join(', ');
    const errors = Object.entries(l.errors ?? {}).map(([s, n]) => `${s}: ${fmt(n)}`).join(', ');
    out.push(
      `| ${fmt(l.connections)} | ${l.mode} | ${fmt(l.peakHeld)} | ${fmt((l.rampMs ?? 0) / 1000, 1)} | ${answers}${errors ? `; errors ${errors}` : ''} | ${fmt(l.rssIdleMiB)} → ${fmt(l.rssPeakMiB)} | ${fmt(l.rssPerHeldKiB, 1)} | ${fmt(l.heapPeakMiB)} | ${fmt(l.eldHoldMs?.p50, 1)} / ${fmt(l.eldHoldMs?.p99, 1)} / ${fmt(l.eldHoldMs?.max, 1)} | ${fmt(l.eldDrainMs?.p99, 1)} / ${fmt(l.eldDrainMs?.max, 1)} | ${fmt((l.answerAllMs ?? 0) / 1000, 1)} | ${fmt((l.drainAfterLastDueMs ?? 0) / 1000, 1)} | ${fmt(l.extraLatencyMs?.p50)} / ${fmt(l.extraLatencyMs?.p99)} |`,
    );
  }
  const skipped = r.levels.filter((l) => !l.ran);
  out.push(
    '',
    `Open-files limit of the load process: ${r.openFilesLimit ? `${r.openFilesLimit.soft} (hard ${r.openFilesLimit.hard})` : 'unknown'}. ${skipped.length === 0 ? 'Every level ran.' : `Not run: ${skipped.map((l) => `${l.connections} (${l.note ?? ''})`).join('; ')}.`} ` +
      'RSS per held request is (peak − idle) ÷ held, and includes each try-on\'s stored inputs (both images are copied into the in-memory store per try-on). ' +
      'In mode 202 answers arrive as each request\'s own wait ends, so first → last answer is about the ramp; "beyond the hold" is each request\'s time minus the scripted hold (it includes the time the request waited to be read during the ramp).',
    '',
  );
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
    ...r.engine.map((e) => `| ${e.label} | ${e.person} | ${e.n} | ${fmt(e.p50Ms, 1)} | ${fmt(e.p99Ms, 1)} | ${fmt(e.minMs, 1)} | ${fmt(e.maxMs, 1)} | ${fmt(e.resultBytes)} |`),
    '',
    `Start to success end to end, through \`POST /tryons/sync\` (the answer comes when the try-on is final, so no polling interval blurs it): ${r.endToEndSettings}.`,
    '',
    '| Load | Starts | Answers | p50 ms | p99 ms | Min ms | Max ms | Answered per s | Wall s |',
    '|---|--:|---|--:|--:|--:|--:|--:|--:|',
    ...r.endToEnd.map(
      (e) =>
        `| ${e.label}: ${e.load} | ${fmt(Object.values(e.statuses).reduce((a, b) => a + b, 0))} | ${Object.entries(e.statuses).map(([s, n]) => `${s}: ${fmt(n)}`).join(', ')} | ${fmt(e.p50Ms, 1)} | ${fmt(e.p99Ms, 1)} | ${fmt(e.minMs, 1)} | ${fmt(e.maxMs, 1)} | ${fmt(e.finishedPerSec, 1)} | ${fmt(e.wallMs / 1000, 1)} |`,
    ),
    '',
    'Paced at the documented limit, latency is one engine run plus the server\'s overhead. At 100 starts/s the engine (4 generation slots, sharp on 2 cores) cannot keep up: answers come at the rate in "answered per s" and the queue — not the server\'s HTTP path — sets the latency. p99 of a handful of paced starts is their maximum.',
    '',
  );
  return out;
}

function conformanceSection(c: BenchReport['conformance']): string[] {
  const out = ['## 4. The cost of a conformance run', ''];
  const e = c.embeddedRun;
  const ep = c.embeddedPlan;
  const rp = c.remotePlan;
  const rr = c.remoteRun;
  out.push('| Profile | What | Tests | Credits | Starts / polls / uploads | Wall time |', '|---|---|---|--:|---|--:|');
  out.push(
    `| Embedded (full, test control) | plan: \`${ep.command}\` | ${fmt(ep.toRun)} of ${fmt(ep.tests)} to run | ≤ ${fmt(ep.credits)} | ${fmt(ep.starts)} / ${fmt(ep.polls)} / ${fmt(ep.uploads)} | least ${ep.leastWallText ?? '–'} |`,
  );
  if (hasError(e)) out.push(`| Embedded (full, test control) | real run | failed: ${e.error} | | | |`);
  else
    out.push(
      `| Embedded (full, test control) | real run: \`${e.command}\` | ${e.tests ? `${e.tests.passed} passed, ${e.tests.failed} failed, ${e.tests.skipped} skipped (${e.outcome ?? '?'})` : '–'}${e.note ? `; ${e.note}` : ''} | ≤ ${fmt(e.declaredCost?.credits)} declared | ${fmt(e.declaredCost?.starts)} / ${fmt(e.declaredCost?.polls)} / ${fmt(e.declaredCost?.uploads)} declared | **${seconds(e.wallSeconds)}** (suite ${seconds(e.reportDurationSeconds)}) |`,
    );
  out.push(
    `| Remote (quick, no test control, documented limits) | plan: \`${rp.command.replace(/vto_live_\w+/g, 'vto_live_…')}\` | ${fmt(rp.toRun)} of ${fmt(rp.tests)} to run | ≤ ${fmt(rp.credits)} | ${fmt(rp.starts)} / ${fmt(rp.polls)} / ${fmt(rp.uploads)} | least ${rp.leastWallText ?? '–'} |`,
  );
  out.push(
    rr.ran
      ? `| Remote (quick, no test control, documented limits) | real run: \`${rr.command}\` (reference server without test control, default limits) | ${fmt(rr.passed)} passed, ${fmt(rr.failed)} failed, ${fmt(rr.skipped)} skipped | **${fmt(rr.creditsSpent)}** spent of ${fmt(rr.creditBudget)} (GET /account) | – | **${seconds(rr.wallSeconds)}** (suite ${seconds(rr.reportedSeconds)}) |`
      : `| Remote (quick, no test control, documented limits) | real run | not run: ${rr.note ?? 'no result'} | | | |`,
  );
  out.push(
    '',
    'Plan figures come from `--plan`, which sends nothing: credits are the sum of what the tests to run declare they may spend; the least wall time is what the documented limits (12 starts/min, 60 polls/min, 30 uploads/min) allow for the planned requests. ' +
      'The embedded run\'s credits are declared upper bounds (its accounts are made through test control, so there is no balance to read). ' +
      'The real run without test control ran in the background while benchmarks 1–3 ran (it waits on the rate limits and used about 2 % of a core), against its own reference server with test control off.',
    '',
  );
  if (rr.ran && rp.leastWallSeconds !== undefined && rr.wallSeconds !== undefined) {
    const executed = (rr.passed ?? 0) + (rr.failed ?? 0);
    const ranFewer = rr.passed !== undefined && rp.toRun !== undefined && executed < rp.toRun;
    out.push(
      `Plan vs real, remote: credits ≤ ${fmt(rp.credits)} planned, ${fmt(rr.creditsSpent)} spent; least wall time ${seconds(rp.leastWallSeconds)} planned, ${seconds(rr.wallSeconds)} taken (${ratio(rr.wallSeconds, rp.leastWallSeconds)} of the plan).` +
        (ranFewer
          ? ` The plan counted ${fmt(rp.toRun)} of ${fmt(rp.tests)} tests to run; the real run executed ${fmt(executed)} and skipped ${fmt(rr.skipped)} (the plan: ${fmt((rp.tests ?? 0) - (rp.toRun ?? 0))})` +
            (rr.skippedForBudget ? `, ${fmt(rr.skippedForBudget)} of them because too little of the credit budget was left at that point` : '') +
            '; the requests of tests that did not run never counted against the limits.'
          : ''),
      '',
    );
  }
  return out;
}
