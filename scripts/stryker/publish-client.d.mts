import type { ReportMutant } from './score-markdown.mjs';

/** The client's page: `header` (an HTML comment, or nothing), the scores, each survivor with its reason. */
export function clientPage(
  report: { readonly files: Readonly<Record<string, { readonly mutants: readonly ReportMutant[] }>> },
  header?: string,
): string;
