/**
 * `compare`'s default output: one paragraph a person reads, regressions first by name, then every
 * other kind of change as a count (`--format full` lists them); and its JSON form for scripts.
 */
import { terminalLine } from '../shared/escape.ts';
import type { ChoiceChange, ComparisonLabels, VerdictChange, VerdictOrAbsent } from './compare.ts';
import { verdictLabel } from './format.ts';

/** At most this many regressions are named in the paragraph; the rest are counted. */
const namedRegressions = 20;

const plural = (n: number, word: string, words = `${word}s`): string => `${n} ${n === 1 ? word : words}`;

const label = (v: VerdictOrAbsent): string => (v === 'absent' ? 'absent' : verdictLabel[v]);

/** `pass → skip` and the like, most frequent first: `80 pass → skip, 12 pass → not observable`. */
function transitions(changes: readonly VerdictChange[]): string {
  const counts = new Map<string, number>();
  for (const c of changes) {
    const key = `${label(c.a)} → ${label(c.b)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .sort((x, y) => y[1] - x[1])
    .map(([t, n]) => `${n} ${t}`)
    .join(', ');
}

/** How a regression came about: `MUST, pass → fail`. */
const howOf = (c: VerdictChange): string => `${c.level}, ${label(c.a)} → fail`;

/**
 * The regressions by name, the most common way once: `12 regressions (MUST, pass → fail unless noted):
 * AUTH-BEARER-REQUIRED, ERR-NOT-FOUND (SHOULD, skip → fail)`.
 */
function regressionNames(regressed: readonly VerdictChange[]): string {
  const counts = new Map<string, number>();
  for (const c of regressed) counts.set(howOf(c), (counts.get(howOf(c)) ?? 0) + 1);
  const common = [...counts].sort((x, y) => y[1] - x[1])[0]?.[0] ?? '';
  const named = regressed.slice(0, namedRegressions).map((c) => (howOf(c) === common ? c.id : `${c.id} (${howOf(c)})`));
  const more = regressed.length - named.length;
  const noted = counts.size === 1 ? common : `${common} unless noted`;
  const rest = more > 0 ? `, and ${more} more` : '';
  return `${plural(regressed.length, 'regression')} (${noted}): ${named.join(', ')}${rest}`;
}

/** Why the allowed new failures are allowed, counted: `2 MAY, 1 expected failure`. */
function allowedCounts(allowed: readonly VerdictChange[]): string {
  const n = (as: VerdictChange['allowedAs']): number => allowed.filter((c) => c.allowedAs === as).length;
  return [
    n('MAY') > 0 && `${n('MAY')} MAY`,
    n('implementation-defined') > 0 && `${n('implementation-defined')} implementation-defined`,
    n('expected') > 0 && plural(n('expected'), 'expected failure'),
  ]
    .filter((s): s is string => typeof s === 'string')
    .join(', ');
}

/** Words joined into lines of at most `width` characters. */
function wrap(text: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

/**
 * The comparison as one paragraph: what regressed (by name), what newly fails without counting, what
 * was fixed, how many otherwise changed and how, how many implementation-defined points differ.
 */
export function summariseComparison(
  changes: readonly VerdictChange[],
  choices: readonly ChoiceChange[],
  labels: ComparisonLabels = {},
): string {
  const of = (kind: VerdictChange['kind']): VerdictChange[] => changes.filter((c) => c.kind === kind);
  const regressed = of('regressed');
  const allowed = of('allowed');
  const fixed = of('fixed');
  const changed = of('changed');
  const differ = choices.filter((c) => c.kind === 'differs').length;
  const a = terminalLine(labels.a ?? 'A');
  const b = terminalLine(labels.b ?? 'B');
  const sentences = [
    `B (${b}) against A (${a}):`,
    regressed.length === 0 ? 'no regression.' : `${regressionNames(regressed)}.`,
    allowed.length > 0 &&
      `${plural(allowed.length, 'requirement')} newly ${allowed.length === 1 ? 'fails' : 'fail'}, ` +
        `never a regression (${allowedCounts(allowed)}).`,
    fixed.length > 0 && `${fixed.length} fixed.`,
    changed.length > 0 && `${changed.length} otherwise changed (${transitions(changed)}).`,
    differ > 0 && `${plural(differ, 'implementation-defined point')} chosen differently.`,
    changes.length > regressed.length && '`--format full` lists every change.',
  ].filter((s): s is string => typeof s === 'string');
  return `${wrap(sentences.join(' '))}\n`;
}

/**
 * The comparison as JSON for scripts, every control or bidi character escaped as `\uXXXX` so that the
 * text is safe in a terminal and still the same JSON.
 */
export function comparisonJson(
  changes: readonly VerdictChange[],
  choices: readonly ChoiceChange[],
  labels: ComparisonLabels = {},
): string {
  const count = (kind: VerdictChange['kind']): number => changes.filter((c) => c.kind === kind).length;
  const value = {
    a: labels.a ?? 'A',
    b: labels.b ?? 'B',
    regressed: count('regressed') > 0,
    counts: {
      regressed: count('regressed'),
      allowed: count('allowed'),
      fixed: count('fixed'),
      changed: count('changed'),
    },
    changes,
    choices,
  };
  const text = JSON.stringify(value, null, 2).replace(/[\p{Cc}\p{Bidi_Control}]/gu, (ch) =>
    ch === '\n' ? ch : `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
  return `${text}\n`;
}
