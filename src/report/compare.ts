/**
 * Two reports side by side (`tryon-conformance compare A/report.json B/report.json`): the
 * requirements whose verdict differs, regressions first, as data and as a terminal table; and the
 * implementation-defined points on which the two targets chose differently (never a regression).
 * A regression is a new failure that would fail a run: never a MAY, an implementation-defined
 * point, or a failure B's expectations file names.
 */
import { terminalLine } from '../shared/escape.ts';
import { verdictLabel } from './format.ts';
import type { ChoiceResult, Report, RequirementResult, Verdict } from './model.ts';
import type { Level } from '../contract/requirements.ts';

/** `absent`: the requirement is not in that report (the catalogue changed between the runs). */
export type VerdictOrAbsent = Verdict | 'absent';

export interface VerdictChange {
  readonly id: string;
  readonly level: Level;
  readonly section: string;
  readonly a: VerdictOrAbsent;
  readonly b: VerdictOrAbsent;
  /**
   * regressed: fails in B, not in A · allowed: the same, but a MAY, an implementation-defined point or
   * an expected failure of B (never a regression) · fixed: failed in A, passes in B · changed: anything else.
   */
  readonly kind: ChangeKind;
  /** Why a new failure is allowed. */
  readonly allowedAs?: AllowedAs;
}

export type ChangeKind = 'regressed' | 'allowed' | 'fixed' | 'changed';
export type AllowedAs = 'MAY' | 'implementation-defined' | 'expected';

const kindOrder = { regressed: 0, allowed: 1, fixed: 2, changed: 3 } as const;

/** Why a failure in B is not a regression, if it is not one. */
function allowedAs(r: RequirementResult): AllowedAs | undefined {
  if (r.expected !== undefined) return 'expected';
  if (r.level === 'MAY') return 'MAY';
  return r.implementationDefined === true ? 'implementation-defined' : undefined;
}

/**
 * The requirements whose verdict differs between `a` and `b`: regressions first, then new failures
 * that are allowed, the fixed, and the rest; each group in spec order.
 */
export function compareReports(a: Report, b: Report): VerdictChange[] {
  const inA = new Map(a.requirements.map((r) => [r.id, r]));
  const inB = new Map(b.requirements.map((r) => [r.id, r]));
  const ids = [...new Set([...b.requirements.map((r) => r.id), ...a.requirements.map((r) => r.id)])];
  const changes: VerdictChange[] = [];
  for (const id of ids) {
    const ra = inA.get(id);
    const rb = inB.get(id);
    const va: VerdictOrAbsent = ra?.verdict ?? 'absent';
    const vb: VerdictOrAbsent = rb?.verdict ?? 'absent';
    if (va === vb) continue;
    const r = (rb ?? ra) as RequirementResult;
    const allowed = vb === 'fail' ? allowedAs(r) : undefined;
    changes.push({
      id,
      level: r.level,
      section: r.section,
      a: va,
      b: vb,
      kind: vb === 'fail' ? (allowed ? 'allowed' : 'regressed') : va === 'fail' && vb === 'pass' ? 'fixed' : 'changed',
      ...(allowed && { allowedAs: allowed }),
    });
  }
  return changes
    .map((c, i) => [c, i] as const)
    .sort(([x, i], [y, j]) => kindOrder[x.kind] - kindOrder[y.kind] || i - j)
    .map(([c]) => c);
}

export interface ComparisonLabels {
  /** What to call each side in the header (e.g. the file paths or start times). */
  readonly a?: string;
  readonly b?: string;
}

const mark = { regressed: '✗', allowed: '!', fixed: '✓', changed: '~' } as const;

/** The changes as a plain-text table for a terminal (no colours, so it pastes anywhere). */
export function formatComparison(changes: readonly VerdictChange[], labels: ComparisonLabels = {}): string {
  const a = labels.a ?? 'A';
  const b = labels.b ?? 'B';
  if (changes.length === 0) return `No requirement changed its verdict between ${a} and ${b}.\n`;
  const label = (v: VerdictOrAbsent): string => (v === 'absent' ? '(absent)' : verdictLabel[v]);
  const note = (c: VerdictChange): string => (c.allowedAs === undefined ? '' : `not a regression: ${c.allowedAs}`);
  const rows = changes.map((c) => [mark[c.kind], c.id, c.level, label(c.a), label(c.b), note(c)]);
  const header = ['', 'Requirement', 'Level', 'A', 'B', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const count = (k: VerdictChange['kind']): number => changes.filter((c) => c.kind === k).length;
  const allowed = count('allowed') > 0 ? `${count('allowed')} newly failing but not a regression, ` : '';
  return [
    `A: ${a}`,
    `B: ${b}`,
    '',
    line(header),
    line(widths.map((w, i) => (header[i] === '' && i > 0 ? '' : '─'.repeat(w)))),
    ...rows.map(line),
    '',
    `${changes.length} requirement${changes.length === 1 ? '' : 's'} changed: ` +
      `${count('regressed')} regressed, ${allowed}${count('fixed')} fixed, ${count('changed')} otherwise changed`,
    '',
  ].join('\n');
}

/** One implementation-defined point on which the two targets were seen to choose differently. */
export interface ChoiceChange {
  readonly point: string;
  readonly requirement?: string;
  /** The values seen in A (sorted), or undefined when A never recorded the point. */
  readonly a?: readonly string[];
  readonly b?: readonly string[];
  /** differs: both recorded it, with other values · only-a / only-b: one run never recorded it. */
  readonly kind: 'differs' | 'only-a' | 'only-b';
}

const choiceOrder = { differs: 0, 'only-a': 1, 'only-b': 2 } as const;

/**
 * The points whose observed values differ between `a` and `b`, then the points seen in one run only
 * (each group by point name). Choices are never judged: a difference here is never a regression.
 */
export function compareChoices(a: Report, b: Report): ChoiceChange[] {
  const valuesOf = (r: Report): Map<string, ChoiceResult> => new Map((r.choices ?? []).map((c) => [c.point, c]));
  const inA = valuesOf(a);
  const inB = valuesOf(b);
  const changes: ChoiceChange[] = [];
  for (const point of [...new Set([...inA.keys(), ...inB.keys()])].sort()) {
    const ca = inA.get(point);
    const cb = inB.get(point);
    const va = ca === undefined ? undefined : ca.values.map((v) => v.value).sort();
    const vb = cb === undefined ? undefined : cb.values.map((v) => v.value).sort();
    if (va !== undefined && vb !== undefined && va.join('\u0000') === vb.join('\u0000')) continue;
    const requirement = cb?.requirement ?? ca?.requirement;
    changes.push({
      point,
      ...(requirement !== undefined && { requirement }),
      ...(va !== undefined && { a: va }),
      ...(vb !== undefined && { b: vb }),
      kind: va === undefined ? 'only-b' : vb === undefined ? 'only-a' : 'differs',
    });
  }
  return changes.sort((x, y) => choiceOrder[x.kind] - choiceOrder[y.kind]);
}

/**
 * The choice differences as plain text: `idempotency-different-body: A 422 IDEMPOTENCY_KEY_REUSED,
 * B 409 IDEMPOTENCY_KEY_CONFLICT`. A report written before choices were recorded (schema v1) is
 * named instead of reporting every point of the other as "only in".
 */
export function formatChoiceComparison(a: Report, b: Report, labels: ComparisonLabels = {}): string {
  const la = labels.a ?? 'A';
  const lb = labels.b ?? 'B';
  const old = [a.schemaVersion === 1 && `A (${la})`, b.schemaVersion === 1 && `B (${lb})`].filter(
    (x): x is string => typeof x === 'string',
  );
  if (old.length > 0)
    return `Implementation-defined points: not compared; ${old.join(' and ')} ${old.length === 1 ? 'was' : 'were'} written before choices were recorded (report.json schema v1).\n`;
  const changes = compareChoices(a, b);
  if (changes.length === 0)
    return 'No implementation-defined point differs: both targets chose the same where both were seen.\n';
  // The values are what the targets sent: one line each, shown, never obeyed.
  const show = (values: readonly string[] | undefined): string =>
    values === undefined ? '(not seen)' : values.map(terminalLine).join(' | ');
  const line = (c: ChoiceChange): string =>
    `  ${terminalLine(c.point)}${c.requirement === undefined ? '' : ` (${terminalLine(c.requirement)})`}: ${c.kind === 'only-b' ? `B ${show(c.b)}` : c.kind === 'only-a' ? `A ${show(c.a)}` : `A ${show(c.a)}, B ${show(c.b)}`}`;
  const group = (kind: ChoiceChange['kind'], title: string): string[] => {
    const rows = changes.filter((c) => c.kind === kind);
    return rows.length === 0 ? [] : [title, ...rows.map(line), ''];
  };
  return [
    'Implementation-defined points (what each target chose where the spec leaves it open; never a regression):',
    '',
    ...group('differs', 'Chosen differently:'),
    ...group('only-a', 'Seen only in A:'),
    ...group('only-b', 'Seen only in B:'),
  ].join('\n');
}
