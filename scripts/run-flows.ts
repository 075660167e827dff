/**
 * `npm run flows`: runs every Arazzo flow (arazzo/tryon-flows.arazzo.yaml) with Redocly Respect
 * against `tryon-conformance serve` on an ephemeral loopback port; exit 1 if any flow fails.
 *
 *   npm run flows                          every flow against serve
 *   npm run flows -- --mutant <name>       every flow against serve behind that proxy mutant; exit 0
 *                                          only if the flow matched to it fails (tests/flows/flow-mutants.ts)
 *   npm run flows -- --mutants             serve, then each matched mutant; writes reports/flows/last.md
 *   --verbose                              also print Respect's own output
 */
import { parseArgs } from 'node:util';
import { flowIds, flowMutants, flowsBrokenBy } from '../tests/flows/flow-mutants.ts';
import { startFlowTarget } from '../tests/flows/flow-target.ts';
import { flowsReport, killed, type MutantRow, writeFlowsReport } from '../tests/flows/flows-report.ts';
import { type FlowResult, runRespect } from '../tests/flows/respect.ts';

interface Run {
  readonly results: readonly FlowResult[];
  readonly seconds: number;
}

async function runAgainst(mutant: string | undefined, verbose: boolean): Promise<Run> {
  const started = performance.now();
  const target = await startFlowTarget(mutant);
  try {
    const run = await runRespect(target.origin, target.controlToken);
    if (verbose || run.flows.length === 0) process.stdout.write(run.output);
    if (run.flows.length === 0) throw new Error(`Respect wrote no results (exit ${run.exitCode})`);
    return { results: run.flows, seconds: (performance.now() - started) / 1000 };
  } finally {
    await target.close();
  }
}

function printResults(title: string, run: Run): void {
  console.log(`${title} (${run.seconds.toFixed(0)} s)`);
  for (const r of run.results) {
    console.log(`  ${r.passed ? 'pass' : 'FAIL'}  ${r.workflowId}`);
    for (const failure of r.failures) console.log(`        ${failure}`);
  }
}

/** Every flow must pass against serve, and each of the six flows must be in the Arazzo file. */
function baselineProblems(results: readonly FlowResult[]): string[] {
  const missing = flowIds.filter((id) => !results.some((r) => r.workflowId === id));
  const failed = results.filter((r) => !r.passed).map((r) => r.workflowId);
  return [...missing.map((id) => `flow ${id} did not run`), ...failed.map((id) => `flow ${id} failed against serve`)];
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      mutant: { type: 'string' },
      mutants: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  });
  const verbose = values.verbose ?? false;
  if (values.mutant !== undefined) {
    const flows = flowsBrokenBy(values.mutant);
    if (flows.length === 0) {
      console.error(
        `run-flows: no flow is matched to mutant ${values.mutant}; matched: ${Object.values(flowMutants).join(', ')}`,
      );
      return 2;
    }
    const run = await runAgainst(values.mutant, verbose);
    printResults(`Flows against serve behind mutant ${values.mutant}`, run);
    const row: MutantRow = { mutant: values.mutant, flows, results: run.results, seconds: run.seconds };
    console.log(killed(row) ? `killed: ${flows.join(', ')} failed` : `SURVIVED: ${flows.join(', ')} passed`);
    return killed(row) ? 0 : 1;
  }
  const baseline = await runAgainst(undefined, verbose);
  printResults('Flows against serve', baseline);
  const problems = baselineProblems(baseline.results);
  if (!values.mutants) {
    for (const p of problems) console.error(`run-flows: ${p}`);
    return problems.length === 0 ? 0 : 1;
  }
  const rows: MutantRow[] = [];
  for (const mutant of [...new Set(Object.values(flowMutants))]) {
    const run = await runAgainst(mutant, verbose);
    printResults(`Flows against mutant ${mutant}`, run);
    rows.push({ mutant, flows: flowsBrokenBy(mutant), results: run.results, seconds: run.seconds });
  }
  const file = writeFlowsReport(flowsReport(baseline.results, baseline.seconds, rows));
  const survivors = rows.filter((row) => !killed(row)).map((row) => row.mutant);
  console.log(`Killed ${rows.length - survivors.length} of ${rows.length} mutants; report: ${file}`);
  for (const p of problems) console.error(`run-flows: ${p}`);
  for (const s of survivors) console.error(`run-flows: mutant ${s} survived`);
  return problems.length === 0 && survivors.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`run-flows: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
