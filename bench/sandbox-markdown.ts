/** The sandbox benchmark's section of reports/bench/bench.md (sandbox-bench.ts). */
import { fmt, fmtSpread } from './markdown-format.ts';
import type { LoadPair, PairResult, SandboxBenchResult } from './sandbox-bench.ts';
import { heldOf } from './sandbox-goals.ts';

/** The section, or nothing for a report without the sandbox benchmark. */
export function sandboxSection(result: SandboxBenchResult | { error: string } | undefined): string[] {
  if (result === undefined) return [];
  const out = ['## 6. The hosted sandbox: PostgreSQL against SQLite, 3 instances against 1', ''];
  if ('error' in result) return [...out, `Not measured: ${result.error}`, ''];
  if (!result.ran) return [...out, `Not measured: ${result.note}.`, ''];
  const o = result.options;
  out.push(
    `Measured ${result.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}. Every instance is \`serve\`, ${result.server}, ` +
      `with the same flags (\`${result.flags.join(' ')}\`) but its database: a throwaway PostgreSQL 15 cluster ` +
      '(src/sandbox/pg-cluster.ts, one database per group; commits flushed to disk, as PostgreSQL does by default and ' +
      'as the SQLite file does) or its own SQLite file. The PostgreSQL and SQLite instances ' +
      'are reached directly; the 1 and the 3 instances each sit on their own database behind their own haproxy, ' +
      'configured as `npm run sandbox` does. Loads: autocannon at ' +
      `${o.connections} connections for ${o.seconds} s, ${o.rounds} rounds in alternating order, ratio per round: ` +
      '`GET /tryons/{id}` of a finished try-on, and real starts (`POST /tryons`, consent true, two uploads, each ' +
      'with its own Idempotency-Key; the person photo is a slow-generation one, so only the start is measured). ' +
      `Held syncs: ${fmt(o.heldRequests)} \`POST /tryons/sync\` of one account sent in batches of 250 until its ` +
      "credits show every one started (all held), then each instance's RSS (/proc) read for 2 s; an answer before " +
      'that is counted with its status, code and message. The instances hold a sync up to their `--sync-wait-ms` ' +
      "(600 s here, not the spec's 55 s, so the first is still held when the last of a ramp of minutes arrives); " +
      "haproxy's client and server timeouts outlast it by a minute, as `npm run sandbox` sets them for that wait. " +
      'An instance is reached by HTTP/1.1, one connection per sync; the balancer by HTTP/2 over cleartext ' +
      '(h2c, 100 streams a connection), which haproxy takes on its plain port as it is, and passes on as HTTP/1.1, ' +
      "one connection per sync: by HTTP/1.1 on both sides each held sync takes two of haproxy's file descriptors, " +
      `so under this machine's hard open-files limit (${fmt(result.openFilesLimit?.hard)}, which the bench cannot ` +
      'raise) haproxy would hold fewer than half that many.',
    '',
    ...(result.single ? pairTable(result.single) : []),
    ...(result.balanced ? pairTable(result.balanced) : []),
  );
  return out;
}

function loadRow(load: LoadPair): string {
  return (
    `| ${load.load} req/s | ${fmtSpread(load.a.reqPerSec)} | ${fmtSpread(load.b.reqPerSec)} | ` +
    `${fmtSpread(load.ratio, 2, '×')} (rounds: ${load.perRound.map((x) => x.toFixed(2)).join(', ') || '–'}) |`
  );
}

function heldCell(held: PairResult['heldA']): string {
  const run = heldOf(held);
  if (!run) return `failed: ${'error' in held ? held.error : ''}`;
  const rss = run.instances.map((i) => `${i.rssIdleMiB} → ${i.rssHeldMiB}`).join('; ');
  const early = run.answeredEarly > 0 ? ` (answered early: ${JSON.stringify(run.earlyStatuses)})` : '';
  const via = run.via === undefined ? '' : ` (${run.via === 'h2c' ? 'h2c' : 'HTTP/1.1'})`;
  return `${fmt(run.started)} of ${fmt(run.requests)} held${via}${early}, RSS MiB ${rss}`;
}

function pairTable(pair: PairResult): string[] {
  const rows = pair.loads.map(loadRow);
  const unexpected = pair.loads
    .flatMap((l) =>
      [l.a, l.b].map((t) => `${l.load} ${t.target}: ${t.runs.map((r) => JSON.stringify(r.statusCounts)).join(' ')}`),
    )
    .join('; ');
  return [
    `| Figure | ${pair.a} | ${pair.b} | ${pair.a} ÷ ${pair.b} |`,
    '|---|---|---|---|',
    ...rows,
    `| Held syncs (RSS idle → held) | ${heldCell(pair.heldA)} | ${heldCell(pair.heldB)} | |`,
    '',
    `Answers per run: ${unexpected}.`,
    '',
  ];
}
