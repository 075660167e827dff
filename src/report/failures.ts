/**
 * How one failure reads in the report: a finding's "Received / Documented" split into received and
 * expected, an assertion's expected and actual values, and the command that replays the test.
 */
import type { TaskMeta } from 'vitest';
import type { Finding } from '../checks/finding.ts';
import type { BrokenRule } from '../suite/rules.ts';
import type { ErrorLike, Failure, Replay, RunInfo } from './types.ts';
import { assertionSentence, shortPropertyReport } from '../shared/assertion-sentence.ts';
import { describeDiff, diffValues, isSubsetMatch } from '../shared/value-diff.ts';

type FailureText = Pick<Failure, 'message' | 'expected' | 'received' | 'check' | 'occurrences'>;

/** A finding (`message` is "Received: …\nDocumented: …") as a failure's text. */
export function failureOfFinding(f: Finding, occurrences: number): FailureText {
  const received = /^Received: ([\s\S]*?)(?:\nDocumented: |$)/.exec(f.message)?.[1];
  const expected = /\nDocumented: ([\s\S]*)$/.exec(f.message)?.[1];
  return {
    message: received === undefined && expected === undefined ? `${f.title}: ${f.message}` : f.title,
    ...(expected !== undefined && { expected }),
    ...(received !== undefined && { received }),
    check: f.check,
    ...(occurrences > 1 && { occurrences }),
  };
}

/**
 * The one line a terminal or CI log shows of a failure: its first line (a broken rule's names the
 * differing fields), and for a finding, whose message is its title, what was received against what
 * is documented.
 */
export function headline(f: Pick<Failure, 'message' | 'expected' | 'received' | 'check'>): string {
  const first = f.message.split('\n')[0] ?? '';
  if (f.check === undefined || (f.expected === undefined && f.received === undefined)) return first;
  const short = (text: string): string => {
    const line = text.split('\n')[0] ?? '';
    return line.length > 120 ? `${line.slice(0, 120)}…` : line;
  };
  const parts = [
    ...(f.received === undefined ? [] : [`received ${short(f.received)}`]),
    ...(f.expected === undefined ? [] : [`documented ${short(f.expected)}`]),
  ];
  return `${first}: ${parts.join('; ')}`;
}

/** A broken rule (`t.must`) as a failure's text: only the fields that differ when expected and received are JSON. */
export function failureOfRule(b: BrokenRule): FailureText {
  return withDiff(b.message, b.expected, b.actual);
}

/**
 * The message and values, narrowed to the differing fields when both values are JSON objects or arrays;
 * the message as a sentence (assertion-sentence.ts), and any fast-check report in it or in a value cut
 * to its counterexample and replay line.
 */
function withDiff(message: string, expected: string | undefined, received: string | undefined): FailureText {
  const diff =
    expected === undefined || received === undefined
      ? undefined
      : diffValues(expected, received, { subset: isSubsetMatch(message) });
  const text =
    diff === undefined
      ? { message, expected, received }
      : { message: describeDiff(message, diff), expected: diff.expected, received: diff.received };
  const readable = (s: string): string => clip(shortPropertyReport(s));
  return {
    message: readable(assertionSentence(text.message)),
    ...(text.expected !== undefined && { expected: readable(text.expected) }),
    ...(text.received !== undefined && { received: readable(text.received) }),
  };
}

const maxMessageChars = 4000;

/**
 * A failed test's errors as a failure's text: the assertion behind a failed property when vitest kept it
 * as `cause`.
 */
export function failureOfError(errors: readonly ErrorLike[], meta: TaskMeta): FailureText {
  const first = errors[0];
  if (first === undefined) return { message: 'the test failed without an error message' };
  const inner = innermost(first);
  let message = inner.message;
  if (inner === first && meta.counterexample !== undefined && /^(?:\[[^\]]*\] )?Property failed after/.test(message)) {
    // A report of fast-check's own with no assertion kept: say what failed in one line instead.
    const example = /^Counterexample: (.*)$/m.exec(meta.counterexample)?.[1];
    message = example === undefined ? 'the property failed' : `the property failed on ${example}`;
  }
  message = withoutReplayLine(message).trim();
  if (errors.length > 1) message += `\n(and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''})`;
  // Serialised assertion errors usually carry strings, but a bare value (a number from toBe) happens too.
  const values =
    inner.expected !== undefined || inner.actual !== undefined
      ? { expected: asText(inner.expected), received: asText(inner.actual) }
      : parseExpectation(message);
  return withDiff(message, values.expected, values.received);
}

function innermost(error: ErrorLike): ErrorLike {
  let e = error;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (e as { cause?: unknown }).cause;
    if (typeof cause !== 'object' || cause === null || typeof (cause as ErrorLike).message !== 'string') break;
    e = cause as ErrorLike;
  }
  return e;
}

function withoutReplayLine(message: string): string {
  return message.replace(/\nReplay: --seed .*$/m, '');
}

/**
 * "expected X to deeply equal Y" (chai's wording, which vitest keeps) → received X, expected Y; a negated
 * one ("expected X not to be Y") expected anything but Y.
 */
function parseExpectation(message: string): { expected?: string; received?: string } {
  const line = message.split('\n')[0] ?? '';
  const m =
    /(?:^|: )expected (.+?) (not to|to not|to) (?:deeply equal|strictly equal|equal|be) (.+?)(?: \/\/ Object\.is equality)?$/.exec(
      line,
    );
  if (m?.[1] === undefined || m[3] === undefined) return {};
  return { received: m[1], expected: m[2] === 'to' ? m[3] : `anything but ${m[3]}` };
}

/** Cuts very long text (a whole counterexample, a huge body) with a note of how much was left out. */
export function clip(text: string): string {
  return text.length <= maxMessageChars
    ? text
    : `${text.slice(0, maxMessageChars)}… (${text.length - maxMessageChars} more characters)`;
}

interface NamedTest {
  readonly name: string;
}

/** The seed and path that replay a failed test (from fast-check's report, else the run's), and the command. */
export function replayOf(
  test: NamedTest,
  meta: TaskMeta,
  errors: readonly ErrorLike[],
  info: Pick<RunInfo, 'seed' | 'target'>,
): Replay {
  const texts = [meta.counterexample ?? '', ...errors.map((e) => e.message)].join('\n');
  const seedText = /\{ seed: (-?\d+)/.exec(texts)?.[1] ?? /--seed (-?\d+)/.exec(texts)?.[1];
  const path = /\bpath: "([\d:]+)"/.exec(texts)?.[1] ?? /--path ([\d:]+)/.exec(texts)?.[1];
  const seed = seedText === undefined ? info.seed : Number(seedText);
  return {
    seed,
    ...(path !== undefined && { path }),
    command: replayCommand({
      seed,
      path,
      testName: test.name,
      baseUrl: info.target.embedded ? undefined : info.target.baseUrl,
    }),
  };
}

export interface ReplayArgs {
  readonly seed: number;
  readonly path: string | undefined;
  /** The test's own name (not its full name): `--grep` is a pattern over vitest's full name. */
  readonly testName: string;
  /** The target, unless it was the embedded reference server. */
  readonly baseUrl: string | undefined;
}

/** `npx tryon-conformance run --seed S --path P --grep "<test name>"`, safe to paste into a POSIX shell. */
export function replayCommand(a: ReplayArgs): string {
  const parts = ['npx tryon-conformance run'];
  if (a.baseUrl !== undefined) parts.push(`--base-url ${doubleQuoted(a.baseUrl)}`);
  parts.push(`--seed ${a.seed}`);
  if (a.path !== undefined) parts.push(`--path ${a.path}`);
  parts.push(`--grep ${doubleQuoted(escapeRegExp(a.testName))}`);
  return parts.join(' ');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A POSIX double-quoted word: only \ " $ ` (and a newline, which names never hold) are special inside. */
function doubleQuoted(text: string): string {
  return `"${text.replace(/[\\"$`]/g, '\\$&').replace(/\n/g, ' ')}"`;
}

function asText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}
