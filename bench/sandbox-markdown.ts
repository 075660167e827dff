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
      '(src/sandbox/pg-cluster.ts, one database per group) or its own SQLite file. The PostgreSQL and SQLite instances ' +
      'are reached directly; the 1 and the 3 instances each sit on their own database behind their own haproxy, ' +
      'configured as `npm run sandbox` does. Loads: autocannon at ' +
      `${o.connections} connections for ${o.seconds} s, ${o.rounds} rounds in alternating order, ratio per round: ` +
      '`GET /tryons/{id}` of a finished try-on, and real starts (`POST /tryons`, consent true, two uploads, each ' +
      'with its own Idempotency-Key; the person photo is a slow-generation one, so only the start is measured). ' +
      `Held syncs: ${fmt(o.heldRequests)} \`POST /tryons/sync\` sent in batches until the account's credits show ` +
      "every one started (all held), then each instance's RSS (/proc) read for 2 s; none answered before.",
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
  return `${fmt(run.started)} of ${fmt(run.requests)} held${early}, RSS MiB ${rss}`;
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
