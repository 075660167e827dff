/**
 * The CLI's terminal writer: what the toolkit prints goes through here, and whatever a target put
 * in it (an error code, a header, a field name, a report's text) is shown, never obeyed: no byte of
 * it can move the cursor, clear the screen or set the window title (escape.ts, terminalText).
 */
import { terminalText } from '../shared/escape.ts';

/** Writes `text` to stdout, every control character shown as an escape (line feeds and tabs stay). */
export function printOut(text: string): void {
  process.stdout.write(terminalText(text));
}

/** Writes `text` to stderr, every control character shown as an escape (line feeds and tabs stay). */
export function printErr(text: string): void {
  process.stderr.write(terminalText(text));
}
