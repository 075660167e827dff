/**
 * Errors of the toolkit itself, apart from API errors and findings: bad flags, bad configuration, an
 * unreachable target, and a setup that fails before any test starts (test control answering wrongly, the
 * key refused, the fixture host down): one line and exit 2, never a finding. Each has a stable code and the
 * exit status the CLI ends with.
 */
import { terminalLine } from './escape.ts';

export const toolkitErrors = {
  USAGE: { exitCode: 2, summary: 'bad command line' },
  CONFIG: { exitCode: 2, summary: 'bad configuration' },
  UNREACHABLE: { exitCode: 2, summary: 'target unreachable' },
  NOT_THE_API: { exitCode: 2, summary: 'the base URL does not answer like the Try-On API' },
  CONTROL: { exitCode: 2, summary: 'the test-control API answered wrongly' },
  KEY_REFUSED: { exitCode: 2, summary: 'the API key was refused at start' },
  FIXTURE_HOST: { exitCode: 2, summary: 'the fixture host is unreachable or serves no fixtures' },
  MISSING_PACKAGE: { exitCode: 2, summary: 'an optional package the command needs is not installed' },
  BUILD_FAILED: { exitCode: 1, summary: 'a build step failed' },
} as const;

export type ToolkitErrorCode = keyof typeof toolkitErrors;

/** A toolkit failure: the CLI prints `message` on one line and exits with the code's status. */
export class ToolkitError extends Error {
  override readonly name = 'ToolkitError';
  readonly exitCode: number;

  constructor(
    readonly code: ToolkitErrorCode,
    message: string,
  ) {
    // The message holds what a target answered (a code, a header): one line, its controls shown, never obeyed.
    super(terminalLine(message));
    this.exitCode = toolkitErrors[code].exitCode;
  }
}
