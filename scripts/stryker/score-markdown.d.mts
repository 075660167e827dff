/** One mutant of a mutation-testing-report-schema report, as far as the score page reads it. */
export interface ReportMutant {
  readonly status: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly location: { readonly start: { readonly line: number; readonly column: number } };
}

/** Counts of one file's mutants by status, and its score in percent (null without a valid mutant). */
export function fileScore(mutants: readonly { status: string }[]): {
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  errors: number;
  ignored: number;
  score: number | null;
};

/** The Markdown page of a run: the score of each file, then each undetected mutant by place. */
export function scoreMarkdown(
  report: { readonly files: Readonly<Record<string, { readonly mutants: readonly ReportMutant[] }>> },
  goal?: number,
  options?: {
    /** The line that says how to run it again; default the oracle's npm scripts. */
    readonly regenerate?: string;
    /** Why an undetected mutant is left (equivalent, unreachable), or undefined when not known. */
    readonly noteOf?: (path: string, mutant: ReportMutant) => string | undefined;
  },
): string;
