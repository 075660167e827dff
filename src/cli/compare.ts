/**
 * `tryon-conformance compare A/report.json B/report.json`: the requirements whose verdicts differ,
 * and the implementation-defined points on which the targets chose differently, e.g. an
 * integrator's mock against staging, or before and after a release. By default one paragraph,
 * regressions first; `--format full` every change, `--format json` for scripts. Exit 1 when B
 * regressed: a new failure of a MUST or SHOULD that B's expectations file does not name (a MAY, an
 * implementation-defined point or a different choice never is).
 */
import { compareChoices, compareReports, formatChoiceComparison, formatComparison } from '../report/compare.ts';
import { comparisonJson, summariseComparison } from '../report/compare-summary.ts';
import { InvalidReportError, readReport } from '../report/read-report.ts';
import { parseFlagsAndOperands } from './parse-flags.ts';
import { printOut } from './print.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';

const help = `usage: tryon-conformance compare [--format summary|full|json] A/report.json B/report.json

Compares run B against run A: the requirements whose verdicts differ, regressions first, and the
implementation-defined points on which the two targets chose differently. Exits 1 when B regressed:
a requirement fails in B that did not in A, unless it is a MAY, an implementation-defined point or an
expected failure of B (run --expect); a different choice never counts.

  --format summary   one paragraph: the regressions by name, every other change counted (default)
  --format full      every changed requirement in a table, and every point chosen differently
  --format json      the same as data
  -h, --help         this help
`;

const formats = ['summary', 'full', 'json'] as const;

/** Runs `compare`; returns its exit status. */
export async function compare(argv: readonly string[]): Promise<number> {
  const { values: f, operands: files } = parseFlagsAndOperands('compare', argv, {
    format: { type: 'string', default: 'summary' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (f.help) {
    process.stdout.write(help);
    return 0;
  }
  const format = formats.find((x) => x === f.format);
  if (format === undefined)
    throw new ToolkitError('USAGE', `compare: --format must be summary, full or json, got '${f.format}'`);
  const [a, b] = files;
  if (files.length !== 2 || a === undefined || b === undefined)
    throw new ToolkitError('USAGE', 'compare: give exactly two report.json files');
  try {
    const [ra, rb] = await Promise.all([readReport(a), readReport(b)]);
    const changes = compareReports(ra, rb);
    const labels = { a, b };
    // The reports hold what their targets sent (choices, reasons): shown, never obeyed by the terminal.
    if (format === 'json') process.stdout.write(comparisonJson(changes, compareChoices(ra, rb), labels));
    else if (format === 'full')
      printOut(`${formatComparison(changes, labels)}\n${formatChoiceComparison(ra, rb, labels)}`);
    else printOut(summariseComparison(changes, compareChoices(ra, rb), labels));
    return changes.some((c) => c.kind === 'regressed') ? 1 : 0;
  } catch (error) {
    if (error instanceof InvalidReportError) throw new ToolkitError('USAGE', `compare: ${error.message}`);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ToolkitError('USAGE', `compare: no such file: ${(error as NodeJS.ErrnoException).path ?? ''}`);
    throw error;
  }
}
