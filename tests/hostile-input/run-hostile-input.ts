/**
 * The hostile-traffic run at full size (issue 13): `npm run hostile:input -- --full` sends 10,000
 * fuzzed requests, the image-bomb table, four bombs in parallel, 100 MiB bodies three ways, and
 * 300 stalled plus 300 trickling bodies, against a reference server in a child process measured
 * from /proc; then, against a server with the default deadlines, near-4 MB uploads at once (32 and
 * 96), and 300 slow uploads and 1,000 slowloris connections from one address while another
 * address reads. Without `--full` it runs the sizes of `npm test`. `--before DIR` also runs the
 * bomb table, the uploads and the slow connections against another checkout's `src/server` (for
 * before/after figures). `--seed N` replays the fuzzer. Prints the figures as Markdown; exits 1
 * when any bound is broken.
 */
import { runBombTable, runParallel, type BombRow } from './bomb-table.ts';
import { buildBombs } from './bombs.ts';
import { bounds, hostileSettings, raisedLimits } from './checks.ts';
import { nearLimitJpeg, runCrowdUploads, type CrowdResult } from './crowd-uploads.ts';
import { fuzz } from './fuzz.ts';
import { sendLargeBody } from './large-body.ts';
import { runLockout, type LockoutMode, type LockoutResult } from './lockout.ts';
import { mib, startServerProcess } from './server-process.ts';
import { runStall } from './stall.ts';

const args = process.argv.slice(2);
const full = args.includes('--full');
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const before = flag('--before');
const seed = flag('--seed') ? Number(flag('--seed')) : undefined;
const size = full
  ? { fuzz: 10_000, stall: 300, crowd: [32, 96], slowUploads: 300, slowloris: 1_000 }
  : { fuzz: 300, stall: 40, crowd: [96], slowUploads: 300, slowloris: 300 };
const problems: string[] = [];
const out = (line = '') => process.stdout.write(`${line}\n`);

const bombs = await buildBombs();
const server = await startServerProcess(hostileSettings);
try {
  const { apiKey } = await server.newAccount(raisedLimits);

  const started = performance.now();
  const report = await fuzz({ base: server.base, apiKey }, size.fuzz, {
    ...(seed !== undefined && { seed }),
    concurrency: 16,
  });
  out(`## Fuzz: ${report.sent} requests (seed ${report.seed}, ${Math.round((performance.now() - started) / 1000)} s)`);
  out();
  out(`Verdicts: ${JSON.stringify(report.byVerdict)}`);
  out(`Statuses: ${JSON.stringify(report.byStatus)}`);
  for (const failure of report.failures) out(`- ${failure.verdict}: ${failure.request} → ${failure.answer}`);
  if (report.byVerdict.ok !== report.sent)
    problems.push(`fuzz: ${report.sent - report.byVerdict.ok} of ${report.sent} answers failed`);

  const rows = await runBombTable(server, apiKey, bombs);
  const old = before ? await bombsBefore(before) : undefined;
  out();
  out('## Image bombs (one upload each; CPU and peak RSS growth of the server process)');
  out();
  out(
    old
      ? '| Bomb | Size | Before: answer | CPU ms | RSS MiB | After: answer | CPU ms | RSS MiB |'
      : '| Bomb | Size | Answer | CPU ms | RSS MiB |',
  );
  out(old ? '|---|---:|---|---:|---:|---|---:|---:|' : '|---|---:|---|---:|---:|');
  for (const [i, row] of rows.entries()) {
    const was = old?.[i];
    const cells = [row.name, `${Math.round(row.bytes / 1024)} KB`, ...(was ? describe(was) : []), ...describe(row)];
    out(`| ${cells.join(' | ')} |`);
    if (row.cpuMs > bounds.bombCpuMs || row.rssGrowthBytes > bounds.bombRssBytes)
      problems.push(`bomb ${row.name}: ${row.cpuMs} ms, ${mib(row.rssGrowthBytes)} MiB`);
    if (row.want === 'refused' && (row.answer.status !== 400 || !row.answer.envelope))
      problems.push(`bomb ${row.name}: answered ${row.answer.status}`);
    if (row.want === 'accepted' && row.answer.status !== 200)
      problems.push(`bomb ${row.name}: answered ${row.answer.status}`);
  }

  const other = await server.newAccount();
  const tall = bombs.find((b) => b.name.startsWith('tall PNG, 1 ×'))!;
  const parallel = await runParallel(server, apiKey, other.apiKey, tall.bytes);
  out();
  out(
    `## Four tall PNGs in flight: a normal upload took ${Math.round(parallel.duringMs)} ms (alone: ${Math.round(parallel.aloneMs)} ms), status ${parallel.normalStatus}; bombs ${parallel.bombStatuses.join(', ')}`,
  );
  if (parallel.normalStatus !== 200 || parallel.duringMs - parallel.aloneMs > bounds.parallelDelayMs)
    problems.push('parallel: the normal upload was delayed or refused');

  out();
  out('## 100 MiB bodies');
  out();
  out('| Mode | Answer | Client handed to its socket | Server read | Server CPU ms |');
  out('|---|---|---:|---:|---:|');
  for (const mode of ['content-length', 'chunked', 'bad-key'] as const) {
    const result = await sendLargeBody(server, apiKey, mode, 100 * 1024 * 1024);
    out(
      `| ${mode} | ${result.answer.status} ${result.answer.body.toString().slice(0, 60)} | ${mib(result.sentBytes)} MiB | ${mib(result.serverReadBytes)} MiB | ${result.serverCpuMs} |`,
    );
    if (
      result.serverReadBytes > bounds.uploadLimitBytes + bounds.largeBodyReadSlackBytes ||
      result.answer.status === undefined
    )
      problems.push(`large body ${mode}: read ${result.serverReadBytes}`);
  }

  out();
  out(
    `## Stalled bodies (request deadline ${hostileSettings.requestDeadlineMs} ms here, checked every ${hostileSettings.deadlineCheckMs} ms)`,
  );
  out();
  for (const mode of ['silent', 'trickle'] as const) {
    const result = await runStall(server, apiKey, size.stall, mode);
    out(
      `- ${mode}: ${result.connections} connections → ${JSON.stringify(result.answers)}, ${result.envelopes} envelopes, the last after ${Math.round(result.slowestMs)} ms; open files ${result.openFilesBefore} → peak ${result.openFilesPeak} → ${result.openFilesAfter}`,
    );
    if (
      result.openFilesAfter > result.openFilesBefore + 2 ||
      result.envelopes + (result.answers.closed ?? 0) !== result.connections
    )
      problems.push(`stall ${mode}: not all answered or files kept`);
    if (result.slowestMs > hostileSettings.requestDeadlineMs + hostileSettings.deadlineCheckMs + 5_000)
      problems.push(`stall ${mode}: the last took ${Math.round(result.slowestMs)} ms`);
  }
} finally {
  await server.stop();
}

const crowds = await crowdRuns();
const now = await crowds(undefined);
const old = before ? await crowds(before) : undefined;
out();
out('## Near-4 MB uploads at once (8 accounts, one address; the database is in memory, so stored images count)');
out();
out('| Server | Uploads | Answers | RSS before | Peak | After 3 s | Stored | Peak beyond stored |');
out('|---|---:|---|---:|---:|---:|---:|---:|');
for (const [name, rows] of [
  ['before', old],
  ['after', now],
] as const) {
  for (const r of rows?.crowd ?? []) {
    const sizes = [r.rssBefore, r.rssPeak, r.rssAfter, r.storedBytes, r.inFlightBytes].map(mib);
    out(`| ${[name, r.count, JSON.stringify(r.answers), ...sizes].join(' | ')} |`);
  }
}
for (const r of now.crowd) {
  if (r.inFlightBytes > bounds.crowdInFlightBytes || r.strays.length > 0) {
    problems.push(`crowd ${r.count}: ${mib(r.inFlightBytes)} MiB beyond stored, ${r.strays.length} strays`);
  }
}
out();
out('## One address holds slow connections; another address reads GET /account 100 times and uploads once');
out();
out('| Server | Mode | Connections | Probes answered 200 | Other upload | Slow ones still open | Slow ones answered |');
out('|---|---|---:|---:|---:|---:|---|');
for (const [name, rows] of [
  ['before', old],
  ['after', now],
] as const) {
  for (const r of rows?.lockout ?? []) {
    const cells = [
      name,
      r.mode,
      r.connections,
      `${r.probesOk} of ${r.probes}`,
      r.otherUploadStatus ?? 'none',
      r.heldAtEnd,
    ];
    out(`| ${cells.join(' | ')} | ${JSON.stringify(r.slowAnswers)} |`);
  }
}
for (const r of now.lockout) {
  if (r.probesOk !== r.probes || r.otherUploadStatus !== 200 || r.slowStrays > 0) {
    problems.push(
      `lockout ${r.mode}: ${r.probesOk} of ${r.probes} probes, upload ${r.otherUploadStatus}, ${r.slowStrays} strays`,
    );
  }
}

out();
out(problems.length === 0 ? 'All bounds held.' : `Bounds broken:\n${problems.map((p) => `- ${p}`).join('\n')}`);
process.exit(problems.length === 0 ? 0 : 1);

function describe(row: BombRow): string[] {
  return [
    `${row.answer.status}${row.answer.code ? ` ${row.answer.code}` : ''}`,
    String(Math.round(row.cpuMs)),
    String(mib(row.rssGrowthBytes)),
  ];
}

type CrowdRuns = { crowd: CrowdResult[]; lockout: LockoutResult[] };

/** The crowd checks, each against a fresh server with the default deadlines (`dir`: another checkout's src/server). */
async function crowdRuns(): Promise<(dir: string | undefined) => Promise<CrowdRuns>> {
  const image = await nearLimitJpeg();
  const modes: Array<[LockoutMode, number]> = [
    ['slow-upload', size.slowUploads],
    ['slowloris', size.slowloris],
  ];
  return async (dir) => {
    const crowd: CrowdResult[] = [];
    const lockout: LockoutResult[] = [];
    for (const count of size.crowd) {
      const fresh = await startServerProcess({}, dir);
      try {
        const keys: string[] = [];
        for (let i = 0; i < 8; i++) keys.push((await fresh.newAccount(raisedLimits)).apiKey);
        crowd.push(await runCrowdUploads(fresh, keys, count, image));
      } finally {
        await fresh.stop();
      }
    }
    for (const [mode, count] of modes) {
      const fresh = await startServerProcess({}, dir);
      try {
        const [attacker, other] = [await fresh.newAccount(raisedLimits), await fresh.newAccount()];
        lockout.push(await runLockout(fresh, attacker.apiKey, other.apiKey, mode, count));
      } finally {
        await fresh.stop();
      }
    }
    return { crowd, lockout };
  };
}

async function bombsBefore(dir: string): Promise<BombRow[]> {
  const old = await startServerProcess({}, dir);
  try {
    const { apiKey } = await old.newAccount({ uploadsPerMinute: 1_000 });
    return await runBombTable(old, apiKey, bombs);
  } finally {
    await old.stop();
  }
}
