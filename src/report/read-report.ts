/**
 * Reads a report.json back (for `tryon-conformance compare`) and checks it against
 * report.schema.json, so a stale or hand-edited file fails with a clear message instead of a wrong
 * comparison.
 */
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Counts, Report } from './model.ts';

// ajv-formats ships CommonJS with `export default`; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Where the schema of report.json lives. */
export const reportSchemaFile = new URL('./report.schema.json', import.meta.url);

let validator: ValidateFunction | undefined;

function validate(): ValidateFunction {
  if (validator === undefined) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(reportSchemaFile, 'utf8')) as object);
  }
  return validator;
}

/**
 * The schema violations of `value` as lines (`/requirements/3/verdict: must be equal to one of the allowed
 * values`); empty when it is a valid report.
 */
export function reportProblems(value: unknown): string[] {
  const fn = validate();
  return fn(value)
    ? []
    : (fn.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`);
}

/** Thrown when a file is not a report this version can read; `file` and `problems` say why. */
export class InvalidReportError extends Error {
  override readonly name = 'InvalidReportError';
  readonly code = 'INVALID_REPORT';

  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(
      `${file} is not a tryon-conformance report.json: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`,
    );
  }
}

/** The largest report.json read back: a full run's report is a few hundred KB. */
export const maxReportBytes = 64 * 1024 * 1024;

/** Reads and validates a report.json, at most {@link maxReportBytes} of it. */
export async function readReport(file: string): Promise<Report> {
  if ((await stat(file)).size > maxReportBytes)
    throw new InvalidReportError(file, [`larger than ${maxReportBytes / 1024 / 1024} MiB`]);
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new InvalidReportError(file, [(error as Error).message]);
  }
  const problems = reportProblems(value);
  if (problems.length > 0) throw new InvalidReportError(file, problems);
  return upgraded(value as Report);
}

/**
 * A report of an older schema version in the current model's shape: version 1 had no choices and
 * no inconclusive verdict, so it comes back with `choices: []` and inconclusive counts of 0.
 */
export function upgraded(report: Report): Report {
  if (report.schemaVersion !== 1) return report;
  const counts = (c: Counts): Counts => ({ ...c, inconclusive: c.inconclusive ?? 0 });
  const s = report.summary;
  return {
    ...report,
    summary: {
      ...s,
      requirements: counts(s.requirements),
      byLevel: { MUST: counts(s.byLevel.MUST), SHOULD: counts(s.byLevel.SHOULD), MAY: counts(s.byLevel.MAY) },
      tests: { ...s.tests, inconclusive: s.tests.inconclusive ?? 0 },
    },
    choices: report.choices ?? [],
  };
}
