/** Section 1 of reports/bench/bench.md: the reference server beside the bare fastify floor and Prism. */
import { fmt, fmtLatency, fmtSpread } from './markdown-format.ts';
import type { BenchReport } from './report.ts';
import { hasError } from './report.ts';
import { endpoints, ratioPairs, type CellResult, type EndpointName, type TargetName } from './side-by-side.ts';
import type { PrismResult } from './prism-vs-reference.ts';
import { spread } from './spread.ts';

const names: Record<TargetName, string> = {
  reference: 'reference',
  floor: 'floor',
  'prism-silent': 'silent Prism',
  prism: 'Prism',
};

function find(
  cells: readonly CellResult[],
  endpoint: EndpointName,
  connections: number,
  target: TargetName,
): CellResult | undefined {
  return cells.find((c) => c.endpoint === endpoint && c.connections === connections && c.target === target);
}

export function serversSection(result: BenchReport['prism']): string[] {
  const out = ['## 1. Reference server vs the bare fastify floor and Stoplight Prism', ''];
  if (hasError(result)) return [...out, `Not measured: ${result.error}`, ''];
  const r: PrismResult = result;
  const order = r.order.map((t) => names[t]);
  out.push(
    `autocannon ${r.durationSeconds} s per run, the same settings for every target; ${r.rounds} rounds per cell (endpoint × connections)${(r.goalCellRounds ?? r.rounds) > r.rounds ? `, ${r.goalCellRounds} in the cell the GET goals are judged on (GET /tryons/{id} at 10 connections)` : ''}, each running every target once, interleaved: ${order.join(', ')}, then the reverse, and so on. ` +
      '**Ratios are taken round by round** (the two runs of a round stand side by side, so drift of the shared machine hits both) and then summarised as median (min–max) over the rounds; absolute req/s on a shared 2-core machine are not the figures to quote. ' +
      'A round where either run saw an unexpected status or a connection error gives no ratio. ' +
      `Before each run the bench waits until every target's process is idle (at most 3 s), so a target still working off its backlog does not eat into the next run: it waited ${settleText(r)}.`,
    '',
    `- **reference**: the reference server in a child process, logger off; every run uses a fresh account whose limits were raised through test control (no 429s).`,
    `- **floor**: ${r.floor.description} (fastify ${r.floor.fastify}). The bodies: ${r.floor.bodies.map((b) => `${b.endpoint} ${b.status}, ${fmt(b.bytes)} B`).join('; ')}. It sends fastify's default headers; the reference server also sent: ${extraHeaders(r)}.`,
    `- **silent Prism**: Prism ${r.prism.version} with \`-v silent\` (no logging, like the reference server); **Prism**: as \`npx prism mock\` runs it (default \`info\` logging, to a file). \`${r.prism.command}\`, up in ${fmt(r.prism.startupMs)} ms.`,
    '',
    'GET /tryons/{id} reads a finished try-on of that account (Prism answers its example); POST /tryons sends `consent: false` with an Idempotency-Key: the reference server answers 403 CONSENT_REQUIRED, Prism fails request validation (`consent` is `const: true`) and answers its 422 example, the floor answers 403 with a body of the same size.',
    '',
    '### Ratios of requests per second, side by side',
    '',
    `| Endpoint | Conns | ${ratioPairs.map(([a, b]) => `${names[a]} ÷ ${names[b]}`).join(' | ')} |`,
    `|---|--:|${ratioPairs.map(() => '--:').join('|')}|`,
  );
  for (const endpoint of endpoints) {
    for (const connections of r.connections) {
      const cols = ratioPairs.map(([a, b]) => {
        const x = r.ratios.find(
          (q) => q.endpoint === endpoint && q.connections === connections && q.target === a && q.versus === b,
        );
        const text = fmtSpread(x?.reqPerSec, 2, '×');
        return a === 'reference' ? `**${text}**` : text;
      });
      out.push(`| ${endpoint} | ${connections} | ${cols.join(' | ')} |`);
    }
  }
  out.push(
    '',
    'Above 1×: the first serves more requests per second than the second.',
    '',
    '### The same ratios by server CPU per response',
    '',
    "The CPU time (user + system, from /proc) each server's process used during its run, per response: the second's ÷ the first's, so above 1× the first needs less CPU per response. " +
      "It moves less with the machine's load than req/s (time a process waits for a core is not its CPU time), and shows a server's cost even where autocannon, sharing the cores, is the bottleneck; a busy neighbour still moves it (shared caches, clock), so this too is per round, side by side.",
    '',
    `| Endpoint | Conns | ${ratioPairs.map(([a, b]) => `${names[a]} vs ${names[b]}`).join(' | ')} |`,
    `|---|--:|${ratioPairs.map(() => '--:').join('|')}|`,
  );
  for (const endpoint of endpoints) {
    for (const connections of r.connections) {
      const cols = ratioPairs.map(([a, b]) =>
        fmtSpread(
          r.ratios.find(
            (q) => q.endpoint === endpoint && q.connections === connections && q.target === a && q.versus === b,
          )?.cpuEfficiency,
          2,
          '×',
        ),
      );
      out.push(`| ${endpoint} | ${connections} | ${cols.join(' | ')} |`);
    }
  }
  out.push(
    '',
    '### Per target: requests per second and latency',
    '',
    'Each figure is median (min–max) over the rounds. autocannon measures latency in whole milliseconds ("<1" is under a millisecond).',
    '',
    '| Endpoint | Conns | Target | req/s | p50 ms | p99 ms | Server CPU µs per response |',
    '|---|--:|---|--:|--:|--:|--:|',
  );
  for (const endpoint of endpoints) {
    for (const connections of r.connections) {
      for (const target of r.order) {
        const c = find(r.cells, endpoint, connections, target);
        out.push(
          `| ${endpoint} | ${connections} | ${names[target]} | ${fmtSpread(c?.reqPerSec)} | ${fmtLatency(c?.p50Ms)} | ${fmtLatency(c?.p99Ms)} | ${fmtSpread(c?.cpuUsPerRequest, 1)} |`,
        );
      }
    }
  }
  out.push(
    '',
    '### Responses checked',
    '',
    'Every response counted by status over all rounds; "unexpected" is any status other than the expected one, "errors" are connection errors and timeouts.',
    '',
  );
  out.push(
    '| Endpoint | Conns | Target | Expected | Status counts | Unexpected | Errors |',
    '|---|--:|---|--:|---|--:|--:|',
  );
  for (const c of r.cells) {
    const counts = Object.entries(c.statusCounts)
      .map(([code, n]) => `${code}: ${fmt(n)}`)
      .join(', ');
    out.push(
      `| ${c.endpoint} | ${c.connections} | ${names[c.target]} | ${c.expectedStatus} | ${counts} | ${c.unexpected === 0 ? '0' : `**${fmt(c.unexpected)}**`} | ${c.errors === 0 ? '0' : `**${fmt(c.errors)}**`} |`,
    );
  }
  out.push('', ...profileSection(r));
  return out;
}

function settleText(r: PrismResult): string {
  const waits = r.cells.flatMap((c) => c.runs.map((x) => x.settleMs));
  const s = spread(waits, 0);
  return s ? `${fmt(s.median)} ms per run at the median, ${fmt(s.max)} ms at most` : 'not at all';
}

function extraHeaders(r: PrismResult): string {
  const floorDefaults = new Set(['connection', 'content-length', 'content-type', 'date', 'keep-alive']);
  const read = r.floor.bodies.find((b) => b.endpoint === 'GET /tryons/{id}');
  const extra = (read?.referenceHeaders ?? []).filter((h) => !floorDefaults.has(h));
  return extra.length === 0 ? 'nothing more' : extra.map((h) => `\`${h}\``).join(', ');
}

function profileSection(r: PrismResult): string[] {
  const out = ['### Where the reference server spends its time on GET /tryons/{id}', ''];
  if (hasError(r.profile)) return [...out, `Not profiled: ${r.profile.error}`, ''];
  const p = r.profile;
  out.push(
    `One CPU profile of the server process (V8 inspector Profiler in the child, started after warm-up, asked for a sample every 250 µs; it took ${fmt(p.samples)} samples, one per ${fmt(p.meanIntervalUs)} µs on average, as the sampler shares the 2 cores with the load) under ${p.load} (${fmt(p.reqPerSec)} req/s while profiled): ${fmt(p.busyMs)} ms busy of ${fmt(p.sampledMs)} ms (idle ${p.idleShare} %). ` +
      `Self time = samples × the mean interval; top 10 functions, share of the busy samples; positions are the compiled \`dist/\` lines when the server runs compiled (the default), or TypeScript lines mapped through tsx's source maps with BENCH_FROM_SOURCE=1. The raw profile is \`${p.file}\` (${fmt(p.fileBytes / 1024)} KiB; open it in Chrome DevTools or speedscope).`,
    '',
    '| # | Function | Where | Area | Self ms | Share |',
    '|--:|---|---|---|--:|--:|',
    ...p.topFunctions.map(
      (f, i) =>
        `| ${i + 1} | \`${f.name}\` | ${f.where ? `\`${f.where}\`` : (nativeFrames[f.name] ?? '(native)')} | ${f.area} | ${fmt(f.selfMs, 1)} | ${f.share.toFixed(1)} % |`,
    ),
    '',
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
