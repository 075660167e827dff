/**
 * Evidence as a shell command: the redacted curl of a request. Bearer and control tokens become
 * placeholders naming the environment variable to use, in double quotes so they expand when the line is
 * pasted into a shell (`-H "authorization: Bearer $TRYON_API_KEY"`); every other character stays literal.
 */
import type { RecordedRequest } from './exchange.ts';

export interface Secrets {
  /** Literal secret → the placeholder that replaces it, e.g. `$TRYON_API_KEY`. */
  readonly [secret: string]: string;
}

/** Replaces every secret in `text` by its placeholder. */
export function redact(text: string, secrets: Secrets): string {
  let out = text;
  for (const [secret, placeholder] of usable(secrets)) out = out.split(secret).join(placeholder);
  return out;
}

/** A curl command that repeats the request, with secrets redacted. */
export function toCurl(request: RecordedRequest, secrets: Secrets = {}): string {
  const word = (s: string): string => shellWord(s, secrets);
  const parts = ['curl', '-sS', '-i', '-X', /^[A-Za-z]+$/.test(request.method) ? request.method : word(request.method)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-length') continue;
    parts.push('-H', word(`${name}: ${value}`));
  }
  if (request.multipart)
    parts.push(
      '-F',
      word(`${request.multipart.field}=@${request.multipart.filename};type=${request.multipart.contentType}`),
    );
  else if (request.body !== undefined) parts.push('--data-binary', word(request.body));
  parts.push(word(request.url));
  return parts.join(' ');
}

/** Secrets long enough to redact safely, longest first (so one secret inside another cannot split it). */
function usable(secrets: Secrets): Array<[string, string]> {
  return Object.entries(secrets)
    .filter(([secret]) => secret.length >= 6)
    .sort(([a], [b]) => b.length - a.length);
}

/** `$NAME`: a placeholder that a POSIX shell expands. Anything else is written as literal text. */
const variable = /^\$([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * One shell word for `text`, with each secret replaced by its placeholder. Without secrets: single
 * quotes (nothing is special inside). With them: double quotes, the placeholder left to expand and
 * `\`, `"`, `$` and backquote escaped in the rest; a literal part holding `!` (history expansion in an
 * interactive bash, even inside double quotes) goes in single quotes beside it instead.
 */
export function shellWord(text: string, secrets: Secrets = {}): string {
  const pieces = split(text, usable(secrets));
  if (!pieces.some((p) => p.variable !== undefined)) return singleQuoted(pieces.map((p) => p.text).join(''));
  const noBang = pieces.every((p) => p.variable !== undefined || !p.text.includes('!'));
  if (noBang)
    return `"${pieces.map((p, i) => (p.variable === undefined ? escapeDouble(p.text) : expansion(p.variable, pieces[i + 1]?.text))).join('')}"`;
  return pieces.map((p) => (p.variable === undefined ? singleQuoted(p.text) : `"\${${p.variable}}"`)).join('');
}

interface Piece {
  readonly text: string;
  /** The variable's name when this piece is a redacted secret. */
  readonly variable?: string;
}

/**
 * `text` cut into literal pieces and secrets (as their variable names); placeholders that are no
 * variable stay literal.
 */
function split(text: string, secrets: ReadonlyArray<[string, string]>): Piece[] {
  let pieces: Piece[] = [{ text }];
  for (const [secret, placeholder] of secrets) {
    const name = variable.exec(placeholder)?.[1];
    pieces = pieces.flatMap((p) => {
      if (p.variable !== undefined || !p.text.includes(secret)) return [p];
      const parts = p.text.split(secret);
      return parts.flatMap((part, i) => [
        ...(part === '' ? [] : [{ text: part }]),
        ...(i < parts.length - 1
          ? [name === undefined ? { text: placeholder } : { text: placeholder, variable: name }]
          : []),
      ]);
    });
  }
  return pieces;
}

/** `$NAME`, or `${NAME}` when the next character could be read as part of the name. */
function expansion(name: string, next: string | undefined): string {
  return next !== undefined && /^[A-Za-z0-9_]/.test(next) ? `\${${name}}` : `$${name}`;
}

function singleQuoted(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Inside double quotes only \ " $ and backquote are special (and ! in an interactive bash: kept out by the caller). */
function escapeDouble(s: string): string {
  return s.replace(/[\\"$`]/g, '\\$&');
}
