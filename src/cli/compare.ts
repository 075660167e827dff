/**
 * `tryon-conformance compare A/report.json B/report.json`: the requirements whose verdicts differ,
 * and the implementation-defined points on which the targets chose differently, e.g. an
 * integrator's mock against staging, or before and after a release. Exit 1 when B regressed (a
 * different choice is never a regression).
 */
import { compareReports, formatChoiceComparison, formatComparison } from '../report/compare.ts';
import { InvalidReportError, readReport } from '../report/read-report.ts';
import { parseFlags } from './parse-flags.ts';
import { printOut } from './print.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';

export async function compare(argv: readonly string[]): Promise<number> {
  const flags = argv.filter((a) => a.startsWith('-'));
  const f = parseFlags('compare', flags, { help: { type: 'boolean', short: 'h', default: false } });
  const files = argv.filter((a) => !a.startsWith('-'));
  if (f.help) {
    process.stdout.write(
      'usage: tryon-conformance compare A/report.json B/report.json\n\nLists the requirements whose verdicts differ, and the implementation-defined points on which\nthe two targets chose differently; exits 1 when B regressed (a different choice never does).\n',
    );
    return 0;
  }
  const [a, b] = files;
  if (files.length !== 2 || a === undefined || b === undefined)
    throw new ToolkitError('USAGE', 'compare: give exactly two report.json files');
  try {
    const [ra, rb] = await Promise.all([readReport(a), readReport(b)]);
    const changes = compareReports(ra, rb);
    // The reports hold what their targets sent (choices, reasons): shown, never obeyed by the terminal.
    printOut(`${formatComparison(changes, { a, b })}\n${formatChoiceComparison(ra, rb, { a, b })}`);
    return changes.some((c) => c.kind === 'regressed') ? 1 : 0;
  } catch (error) {
    if (error instanceof InvalidReportError) throw new ToolkitError('USAGE', `compare: ${error.message}`);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ToolkitError('USAGE', `compare: no such file: ${(error as NodeJS.ErrnoException).path ?? ''}`);
    throw error;
  }
}
