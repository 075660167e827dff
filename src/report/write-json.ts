/**
 * report.json: the report model as it is (schema: report.schema.json), for tools and for
 * `tryon-conformance compare`.
 */
import type { Report } from './model.ts';

/** The report as JSON text, two-space indented, ending in a newline. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
