/**
 * `tryon-conformance run`: the flags parsed once (run-config.ts), the run (conduct-run.ts), then
 * the report's paths and its headline. Exit 0 when every judged MUST requirement passed, 1 when one
 * failed, 2 on usage errors, an unreachable target or errors of the run itself, 130 on a signal.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { expectationLines } from '../report/expectations-view.ts';
import { testsCut } from '../report/cost.ts';
import { headline } from '../report/format.ts';
import { learnedLines } from '../report/learned.ts';
import { requestCountsLines } from '../report/requests-counted.ts';
import { ProgressReporter, liveProgress } from '../report/progress.ts';
import { estimateInputsFor, planRun } from '../run/collect-plan.ts';
import { formatPlan } from '../run/plan.ts';
import { conductRun } from './conduct-run.ts';
import { printOut } from './print.ts';
import { parseRunFlags, runHelp, type RunCommand } from './run-config.ts';

/** Runs the `run` command; returns its exit status. */
export async function run(argv: readonly string[]): Promise<number> {
  const env = process.env;
  const command = parseRunFlags(argv, env);
  if (command === 'help') {
    process.stdout.write(`${runHelp}\n`);
    return 0;
  }
  if (command.plan) return printPlan(command);
  const done = await conductRun(command, {
    log: (line) => printOut(`${line}\n`),
    reporters: [
      new ProgressReporter({ live: liveProgress(process.stdout, env), creditBudget: command.config.creditBudget }),
    ],
    listenToSignals: true,
    writeReport: true,
  });
  const written = done.written;
  if (written === undefined) throw new Error('run: the report was not written');
  const { files } = written;
  printOut(`\nReport: ${files.html}\n  also ${files.json}, ${files.junit}, ${files.markdown}\n`);
  printOut(`  latest copy: ${written.latest}\n`);
  if (command.stepSummary !== undefined) await appendFile(command.stepSummary, await readFile(files.markdown, 'utf8'));
  printOut(`${headline(done.report)}\n`);
  for (const line of expectationLines(done.report)) printOut(`${line}\n`);
  for (const line of learnedLines(done.report)) printOut(`${line}\n`);
  for (const line of requestCountsLines(done.report)) printOut(`${line}\n`);
  if (done.report.interrupted !== undefined) {
    const cut = testsCut(done.report.tests);
    printOut(
      `Cut by the stop: ${cut.stopped.length} stopped mid-way, ${cut.notRun.length} not run (named in the report)\n`,
    );
  }
  return done.exitCode;
}

/** `run --plan`: the plan of the run, from the suite collected with the target's configuration; nothing is sent. */
async function printPlan(command: RunCommand): Promise<number> {
  const { config } = command;
  const plan = await planRun(config, command.grep, await estimateInputsFor(config, command, { sendNothing: true }));
  printOut(`Target: ${command.embedded ? 'the embedded reference server (test control on)' : config.baseUrl}\n`);
  printOut(formatPlan(plan));
  return 0;
}
