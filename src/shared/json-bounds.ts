/**
 * The bounds of the JSON the runner reads from a target: how large a body it parses and how deep it
 * lets a value nest. This API's bodies are a few hundred bytes and a few levels deep; a hostile one
 * can be megabytes, or an array nested 200,000 levels deep that overflows any recursive walk (and
 * `JSON.stringify`, `structuredClone`). A body past a bound is not handed to any reader: the
 * exchange says why (`RecordedResponse.jsonUnread`), and the checks record it.
 */

/** Levels of arrays and objects the runner reads; a deeper body is not read at all. */
export const maxJsonDepth = 64;

/** The largest body the runner parses as JSON. */
export const maxJsonBytes = 1024 * 1024;

/** A body read as JSON: its value, or why it was not read; undefined when it is not JSON at all. */
export type JsonReading = { readonly json: unknown } | { readonly unread: string } | undefined;

/** Reads a body as JSON within the bounds. Never throws. */
export function readJsonBody(bytes: Buffer): JsonReading {
  if (bytes.length > maxJsonBytes) {
    const over = `over the ${maxJsonBytes} the runner reads as JSON`;
    return { unread: `the target answered a body of ${bytes.length} bytes, ${over}` };
  }
  let json: unknown;
  const text = bytes.toString('utf8');
  try {
    json = JSON.parse(text);
  } catch (error) {
    // A SyntaxError is a body that is not JSON; anything else (a RangeError) is JSON the runner cannot read.
    if (error instanceof SyntaxError) return undefined;
    return { unread: `the target answered a body the runner cannot parse as JSON (${String(error)})` };
  }
  if (opensAtMost(text, maxJsonDepth)) return { json };
  if (nestsDeeperThan(json, maxJsonDepth)) {
    return { unread: `the target answered a JSON body nested deeper than ${maxJsonDepth} levels` };
  }
  return { json };
}

/**
 * Whether `text` holds at most `limit` opening brackets and braces in all: then what it parses to
 * cannot nest deeper than `limit` (the common case, told without walking the value).
 */
function opensAtMost(text: string, limit: number): boolean {
  let opens = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x5b || c === 0x7b) && ++opens > limit) return false;
  }
  return true;
}

/** Whether `value` nests arrays and objects deeper than `limit` levels (a scalar is level 0). Safe at any depth. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<readonly [unknown, number]> = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [at, depth] = next;
    if (typeof at !== 'object' || at === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(at) ? at : Object.values(at)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * `value` as JSON text for a message, cut at `maxChars`: never throws, whatever the value (too
 * deep for `JSON.stringify`, a cycle, a BigInt), and never longer than the bound plus an ellipsis.
 */
export function showJson(value: unknown, maxChars = 200): string {
  let text: string;
  if (nestsDeeperThan(value, maxJsonDepth)) text = `(a value nested deeper than ${maxJsonDepth} levels)`;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
