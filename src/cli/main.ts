#!/usr/bin/env node
/**
 * `tryon-conformance <command> [flags]`: the toolkit's one entry point. Each command parses its own
 * flags once, here at the edge; a bad flag is a one-line message and exit 2, never a stack trace.
 */
import { commands } from './commands.ts';
import { terminalLine } from '../shared/escape.ts';
import { printErr } from './print.ts';
import { errorLine } from './failed-run.ts';
import { ToolkitError } from '../shared/toolkit-errors.ts';

const usage = `usage: tryon-conformance <command> [flags]

commands:
${commands.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`).join('\n')}

Run \`tryon-conformance <command> --help\` for a command's flags.`;

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) throw new ToolkitError('USAGE', `unknown command '${name}' (try --help)`);
  return command.run(rest);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof ToolkitError) {
    // One line, whatever a target put in the message.
    printErr(`tryon-conformance: ${terminalLine(error.message)}\n`);
    process.exitCode = error.exitCode;
  } else {
    // An error of the command itself: one line and exit 2, as for every error of a run (README).
    printErr(`tryon-conformance: internal error: ${errorLine(error)}\n`);
    process.exitCode = 2;
  }
}
