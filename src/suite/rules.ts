/**
 * How a conformance test states what it proves: every assertion belongs to one requirement, so a
 * failure fails that requirement alone; a problem of the run's own (a precondition that did not hold,
 * our clock) makes the test inconclusive, never a failure; and what a target chose where the spec is
 * silent is recorded as a choice, never judged.
 */
import { assertionSentence } from '../shared/assertion-sentence.ts';
import { showJson } from '../shared/json-bounds.ts';
import { describeDiff, diffValues, isSubsetMatch } from '../shared/value-diff.ts';
import type { RequirementId } from '../contract/requirements.ts';

/** One assertion of a requirement failed: that requirement fails, the rest of the test is inconclusive. */
export class RuleBroken extends Error {
  override readonly name = 'RuleBroken';
  constructor(
    readonly requirement: RequirementId,
    message: string,
    readonly expected?: string,
    readonly actual?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The test could not judge what it covers (a precondition of the run's own failed); no verdict follows. */
export class Inconclusive extends Error {
  override readonly name = 'Inconclusive';
}

/** What a target chose on one point the spec leaves open (openapi.yaml `x-point`, or a loose wording). */
export interface Choice {
  /**
   * The point: an `x-point` name of openapi.yaml where there is one (`idempotency-different-body`), else
   * a short kebab-case name.
   */
  readonly point: string;
  /** What the target did, in a few words: `409 IDEMPOTENCY_KEY_CONFLICT`. */
  readonly value: string;
  /** The requirement the point belongs to, when the catalogue has one. */
  readonly requirement?: RequirementId;
}

/** A failed requirement of one test, as the report reads it. */
export interface BrokenRule {
  readonly requirement: RequirementId;
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
}

interface AssertionLike {
  readonly message?: unknown;
  readonly expected?: unknown;
  readonly actual?: unknown;
}

/** An asymmetric matcher (`expect.stringMatching(/x/)`) as it reads, not as its fields (`{"inverse":false}`). */
const matcherText = (_key: string, v: unknown): unknown => {
  const m = v as { asymmetricMatch?: unknown; toAsymmetricMatcher?: unknown; sample?: unknown } | null;
  if (typeof m !== 'object' || m === null || typeof m.asymmetricMatch !== 'function') return v;
  // Its own text where it has one (`Any<String>`); a negated one's name says so (`StringNotContaining`).
  if (typeof m.toAsymmetricMatcher === 'function') return String(m.toAsymmetricMatcher());
  const sample = m.sample instanceof RegExp ? String(m.sample) : m.sample === undefined ? '' : JSON.stringify(m.sample);
  return `${String(m)}${sample === '' ? '' : ` ${sample}`}`;
};

const show = (v: unknown): string | undefined =>
  // Stryker disable next-line ConditionalExpression,StringLiteral: JSON.stringify(undefined) is undefined; key unused
  v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(matcherText('', v), matcherText, 2);

/**
 * Runs `assertion` (vitest `expect` calls, usually) as a rule of requirement `id`. When it throws,
 * the requirement is broken: the error becomes a RuleBroken that names `id`, with the assertion's
 * expected and received values kept, so fast-check can shrink on it and the report can show them;
 * its message names the fields that differ where the assertion's own abbreviates them.
 */
export function must(id: RequirementId, assertion: () => void): void {
  try {
    assertion();
  } catch (error) {
    if (error instanceof RuleBroken || error instanceof Inconclusive) throw error;
    const e = (error ?? {}) as AssertionLike;
    const said = String(e.message ?? error);
    // A negated assertion's expected value is what the answer must not be.
    // A quoted value ('… not to be empty', a target's text) is read whole, never as the matcher's verb.
    const negated = /^[^\n]*?\bexpected (?:'(?:[^'\\\n]|\\.)*'|[^'\n])+? (?:not to|to not) /.test(said);
    const shown = show(e.expected);
    const expected = negated && shown !== undefined ? `anything but ${shown}` : shown;
    const actual = show(e.actual);
    // The line a terminal or CI log shows first names the fields that differ, not `{ op: 'x', …(3) }`,
    // and says what was expected and what came in words, not in the matcher's.
    const diff =
      // Stryker disable next-line ConditionalExpression,LogicalOperator: diffValues is undefined for these too
      expected === undefined || actual === undefined || negated
        ? undefined
        : diffValues(expected, actual, { subset: isSubsetMatch(said) });
    const narrowed = diff === undefined ? said : describeDiff(said, diff);
    // Where a message names only the differing fields, the fields that held say where (label, status, code).
    const where = diff === undefined || narrowed === said ? '' : whereOf(e.actual, diff.fields);
    // Stryker disable next-line StringLiteral: split always gives a first line
    // A narrowed line is a sentence already, with a target's values in it: it is not read again.
    const [sentence = '', ...rest] = assertionSentence(said).split('\n');
    const first = narrowed === said ? sentence : narrowed.slice(0, `${narrowed}\n`.indexOf('\n'));
    throw new RuleBroken(id, [`[${id}] ${first}${where}`, ...rest].join('\n'), expected, actual, { cause: error });
  }
}

/** Up to four scalar fields of a received object that are not among `differing`, as "(where k v, …)". */
function whereOf(actual: unknown, differing: readonly string[]): string {
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return '';
  const names = new Set(differing.map((path) => path.split(/[.[]/)[0]));
  const held = Object.entries(actual)
    .filter(([k, v]) => !names.has(k) && (v === null || ['string', 'number', 'boolean'].includes(typeof v)))
    .slice(0, 4);
  return held.length === 0 ? '' : ` (where ${held.map(([k, v]) => `${k} ${showJson(v, 60)}`).join(', ')})`;
}

/** Throws Inconclusive with `reason` unless `condition` holds: for preconditions of the run's own. */
export function precondition(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new Inconclusive(reason);
}
