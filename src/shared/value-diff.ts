/**
 * A failed assertion, read well: when the expected and received values of a broken rule are JSON
 * (as `t.must` keeps them), the report shows only the fields that differ, not vitest's one-line
 * `{ op: 'createTryOn', …(3) }` that hides them.
 */
import { maxJsonDepth, nestsDeeperThan, showJson } from './json-bounds.ts';

/** What differs between an expected and a received JSON value, one `path: value` line per field. */
export interface ValueDiff {
  /** The differing fields, as paths (`status`, `body.code`, `keys[2]`). */
  readonly fields: readonly string[];
  readonly expected: string;
  readonly received: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const absent = '(absent)';

function parse(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

const isRecord = (v: Json | undefined): v is { [key: string]: Json } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The fields in which `received` differs from `expected`, when both are JSON objects or arrays;
 * undefined otherwise (plain text, scalars, or nothing differs). With `subset` (vitest's
 * `toMatchObject`), fields that only `received` has are not differences.
 */
export function diffValues(
  expected: string,
  received: string,
  options: { readonly subset?: boolean } = {},
): ValueDiff | undefined {
  const e = parse(expected);
  const r = parse(received);
  if (e === undefined || r === undefined || typeof e !== 'object' || typeof r !== 'object' || e === null || r === null)
    return undefined;
  const rows = walk(e, r, options.subset === true);
  if (rows.length === 0) return undefined;
  return {
    fields: rows.map(([path]) => path),
    expected: rows.map(([path, x]) => `${path}: ${x}`).join('\n'),
    received: rows.map(([path, , y]) => `${path}: ${y}`).join('\n'),
  };
}

/** The most differing fields listed, and the longest value shown: a target's JSON can be large. */
const maxRows = 100;
const maxShownChars = 1_000;
const notCompared = `(not compared: nested deeper than ${maxJsonDepth} levels)`;

/** Two values to compare, at one path. */
interface Pair {
  readonly e: Json | undefined;
  readonly r: Json | undefined;
  readonly path: string;
}

interface Step extends Pair {
  readonly depth: number;
}

/**
 * The differing fields, in document order, as `[path, expected, received]`. Iterative, and no deeper
 * than `maxJsonDepth` levels: below that a value compares whole, so JSON of any depth is safe.
 */
function walk(expected: Json, received: Json, subset: boolean): Array<[string, string, string]> {
  const rows: Array<[string, string, string]> = [];
  const stack: Step[] = [{ e: expected, r: received, path: '', depth: 0 }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if (rows.length >= maxRows) {
      rows.push(['(more)', '(further fields not compared)', '(further fields not compared)']);
      break;
    }
    const { e, r, path, depth } = step;
    const children = depth < maxJsonDepth ? childrenOf(e, r, path, subset) : undefined;
    if (children !== undefined) {
      for (let i = children.length - 1; i >= 0; i--) stack.push({ ...(children[i] as Pair), depth: depth + 1 });
      continue;
    }
    const [x, y] = [show(e), show(r)];
    const field = path === '' ? '(value)' : path;
    if (x !== y) rows.push([field, x, y]);
    // Both too deep to show: the same placeholder says nothing of whether they differ.
    else if (nestsDeeperThan(e, maxJsonDepth)) rows.push([field, notCompared, notCompared]);
  }
  return rows;
}

/** The pairs to compare below two objects, or two arrays of one length; undefined when they compare whole. */
function childrenOf(e: Json | undefined, r: Json | undefined, path: string, subset: boolean): Pair[] | undefined {
  if (isRecord(e) && isRecord(r)) {
    const keys = [...new Set([...Object.keys(e), ...(subset ? [] : Object.keys(r))])];
    return keys.map((key) => ({ e: e[key], r: r[key], path: path === '' ? key : `${path}.${key}` }));
  }
  if (Array.isArray(e) && Array.isArray(r) && e.length === r.length) {
    return e.map((item, i) => ({ e: item, r: r[i], path: `${path}[${i}]` }));
  }
  return undefined;
}

function show(v: Json | undefined): string {
  return v === undefined ? absent : showJson(v, maxShownChars);
}

/**
 * An assertion message with vitest's abbreviated objects (`…(3)`) rewritten to name the differing
 * fields; other lines (a counterexample, a replay line) and a custom message before "expected" stay.
 */
export function describeDiff(message: string, diff: ValueDiff): string {
  const [first = '', ...rest] = message.split('\n');
  if (!hidesValues(first)) return message;
  const at = first.search(/(?:^|\s)expected /);
  const prefix = at <= 0 ? '' : `${first.slice(0, at).trim()} `;
  return [`${prefix}${fieldsLine(diff)}`, ...rest].join('\n');
}

/**
 * Whether an assertion's first line abbreviates its values: vitest's `…(3)`, `[Object]`, `[Array]`,
 * chai's `{ Object (op, status, ...) }` outside vitest, or a line too long to read in a log.
 */
function hidesValues(line: string): boolean {
  return /…\(\d+\)|\[Object\]|\[Array\]|\b(?:Object|Array)\s*\(|\.\.\.|…/.test(line) || line.length > 200;
}

const maxValueChars = 60;
const maxLineChars = 300;

/**
 * One line naming each differing field with both values: `status differs: expected 200, received
 * 201`, or `2 fields differ: status: expected 401, received 404; code: expected …, received …`,
 * the values cut at 60 characters and the line at about 300 (then the names of the rest).
 */
export function fieldsLine(diff: ValueDiff): string {
  const expected = diff.expected.split('\n');
  const received = diff.received.split('\n');
  const value = (line: string | undefined, path: string): string => {
    const v = (line ?? '').slice(path.length + 2);
    return v.length > maxValueChars ? `${v.slice(0, maxValueChars)}…` : v;
  };
  const both = (path: string, i: number): string =>
    `expected ${value(expected[i], path)}, received ${value(received[i], path)}`;
  const [only] = diff.fields;
  if (diff.fields.length === 1 && only !== undefined) return `${only} differs: ${both(only, 0)}`;
  const parts = diff.fields.map((path, i) => `${path}: ${both(path, i)}`);
  const head = `${parts.length} fields differ: `;
  let line = head;
  let shown = 0;
  for (const part of parts) {
    if (shown > 0 && line.length + part.length > maxLineChars) break;
    line += `${shown > 0 ? '; ' : ''}${part}`;
    shown++;
  }
  const left = diff.fields.slice(shown);
  return left.length === 0 ? line : `${line}; and ${left.join(', ')}`;
}

/** Whether an assertion message is vitest's `toMatchObject` (a subset match). */
export function isSubsetMatch(message: string): boolean {
  return /\bto match object\b/.test(message);
}
