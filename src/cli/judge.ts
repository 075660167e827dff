/**
 * `tryon-conformance judge FILE`: the passive verdicts of a recording (the proxy's --record, or a HAR
 * from elsewhere) and its clients' grade, written as a run's reports by the proxy's own code path.
 * Exit 0 or 1 as `run` (1 when a MUST requirement the spec's own words make failed); 2 on a bad
 * command line or a recording that cannot be read.
 */
import { pathToFileURL } from 'node:url';
import type { ClientGrade } from '../grade/grade.ts';
import { gradeFileNames } from '../grade/write-grade.ts';
import { join, resolve } from 'node:path';
import { headline } from '../report/format.ts';
import { exitStatusOf } from '../report/summary.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';
import { parseDeclaredLimits } from '../suite/declared-limits.ts';
import { TrafficJudgement, writeJudgedReports } from '../traffic/traffic-judgement.ts';
import { formatOfFile, readTrafficFile, RecordingError } from '../traffic/read-traffic-file.ts';
import { maxHarChars, maxLineChars } from '../traffic/recording.ts';
import { parseFlagsAndOperands } from './parse-flags.ts';
import { printOut } from './print.ts';

const help = `usage: tryon-conformance judge [options] FILE

Judges both halves of recorded traffic by the spec, without sending anything: the server's side
by every per-exchange check of the suite and the rules traffic can show (try-on states,
idempotent replays, rate windows, balances, result URLs and images), and each client by the
client rules of serve --grade-clients, as the proxy does. Writes the same reports as a run
(report.json, junit.xml, report.md, report.html) with the client grade in report.json and
beside it (client-grade.*); compare reads them. A rule the traffic did not exercise is
"not exercised" (not-observable), never a pass.

  --format ndjson|har   the recording's format (default: from its first characters)
  --report-dir DIR      where reports/<timestamp>/ and reports/latest go (default ./reports)
  --base-path P         the path of the base URL the client used (default /api/v1)
  --limits L            the target's rate limits, as run takes them: starts=N,polls=N,uploads=N, or none
  --balance-path P      where GET /account keeps the balance (a JSON pointer or a dotted path)
  --host H              a host a resultUrl may name besides the API's (repeatable)
  -h, --help            this help

Bounds: an NDJSON line over ${maxLineChars} characters is skipped and counted; a HAR file over
${maxHarChars} bytes is refused (exit 2). Exit 0 or 1 as run; 2 on bad input.
`;

/** Runs `judge`; returns its exit status. */
export async function judge(argv: readonly string[]): Promise<number> {
  const { values: f, operands } = parseFlagsAndOperands('judge', argv, {
    format: { type: 'string' },
    'report-dir': { type: 'string' },
    'base-path': { type: 'string' },
    limits: { type: 'string' },
    'balance-path': { type: 'string' },
    host: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (f.help) {
    process.stdout.write(help);
    return 0;
  }
  const [file] = operands;
  if (operands.length !== 1 || file === undefined) throw new ToolkitError('USAGE', 'judge: give exactly one FILE');
  const format = f.format;
  if (format !== undefined && format !== 'ndjson' && format !== 'har')
    throw new ToolkitError('USAGE', `judge: --format must be ndjson or har, got '${format}'`);
  const basePath = f['base-path'];
  if (basePath !== undefined && !/^(\/[A-Za-z0-9._~-]+)*\/?$/.test(basePath))
    throw new ToolkitError('USAGE', `judge: --base-path must be a path such as /api/v1, got '${basePath}'`);
  const limits = f.limits === undefined ? undefined : parseDeclaredLimits(f.limits);
  if (typeof limits === 'object' && 'error' in limits)
    throw new ToolkitError('USAGE', `judge: --limits must be none or starts=N,polls=N,uploads=N: ${limits.error}`);
  const judgement = new TrafficJudgement({
    ...(basePath !== undefined && { basePath: basePath.replace(/\/$/, '') }),
    ...(limits !== undefined && { limits }),
    ...(f['balance-path'] !== undefined && { balancePath: f['balance-path'] }),
    ...(f.host !== undefined && { hosts: f.host }),
  });
  let problems: Awaited<ReturnType<typeof readTrafficFile>>;
  try {
    problems = await readTrafficFile(file, await formatOfFile(file, format), (te) => judgement.observe(te));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ToolkitError('USAGE', `judge: no such file: ${file}`);
    if (code === 'EISDIR') throw new ToolkitError('USAGE', `judge: ${file} is a directory`);
    if (error instanceof RecordingError) throw new ToolkitError('USAGE', `judge: ${file}: ${error.message}`);
    throw error;
  }
  const seen = judgement.judge.seen();
  if (seen.exchanges === 0 && problems.length > 0)
    throw new ToolkitError('USAGE', `judge: ${file}: no readable exchange (${problemLine(problems[0])})`);
  const info = { target: pathToFileURL(resolve(file)).href, unreadRecords: problems.length, final: true };
  const { written, report, grade } = await writeJudgedReports(judgement, info, f['report-dir'] ?? 'reports');
  printOut(`Judged ${seen.exchanges} exchanges of ${file}`);
  printOut(
    problems.length === 0 ? '\n' : `; ${problems.length} records not read, the first: ${problemLine(problems[0])}\n`,
  );
  if (seen.notKept > 0) printOut(`State let go past the judge's caps: ${seen.notKept} (accounts, try-ons, keys)\n`);
  printOut(
    `Report: ${written.files.html}\n  also ${written.files.json}, ${written.files.junit}, ${written.files.markdown}\n`,
  );
  printOut(`  the clients' grade: ${join(written.dir, gradeFileNames.html)}, and beside it in the other formats\n`);
  printOut(`${headline(report)}\n`);
  printOut(`${clientLine(grade)}\n`);
  const failed = report.requirements.filter((r) => r.verdict === 'fail').map((r) => r.id);
  if (failed.length > 0)
    printOut(
      `Failed: ${failed.slice(0, 20).join(', ')}${failed.length > 20 ? ` and ${failed.length - 20} more` : ''}\n`,
    );
  return exitStatusOf(report.summary.outcome);
}

/** The client half in a line: how many callers, how many with a failed rule, the rules' counts. */
function clientLine(grade: ClientGrade): string {
  const { callers, failingCallers, pass, fail, notExercised } = grade.summary;
  return `Clients: ${callers} graded, ${failingCallers} with a failed rule (${pass} pass, ${fail} fail, ${notExercised} not exercised)`;
}

function problemLine(p: { readonly at: number; readonly problem: string } | undefined): string {
  return p === undefined ? '' : `record ${p.at}: ${p.problem}`;
}
