/** Flag parsing shared by the CLI commands: node's strict parseArgs, with usage errors as ToolkitError. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ToolkitError } from '../shared/toolkit-errors.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed values, named so the package's type declarations can say it (node does not export its name). */
export type ParsedFlags<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>
>['values'];

/** Parses `argv` against `options`; an unknown flag or a missing value becomes a USAGE error. */
export function parseFlags<O extends Options>(command: string, argv: readonly string[], options: O): ParsedFlags<O> {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ToolkitError('USAGE', `${command}: ${why} (try \`tryon-conformance ${command} --help\`)`);
  }
}

/** {@link parseFlags} for a command that also takes operands (files): the flags' values and the operands in order. */
export function parseFlagsAndOperands<O extends Options>(
  command: string,
  argv: readonly string[],
  options: O,
): { values: ParsedFlags<O>; operands: string[] } {
  try {
    const parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
    return { values: parsed.values as ParsedFlags<O>, operands: parsed.positionals };
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ToolkitError('USAGE', `${command}: ${why} (try \`tryon-conformance ${command} --help\`)`);
  }
}
