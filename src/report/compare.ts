/**
 * Two reports side by side (`tryon-conformance compare A/report.json B/report.json`): the
 * requirements whose verdict differs, regressions first, as data and as a terminal table.
 */
import { verdictLabel } from './format.ts';
import type { Report, RequirementResult, Verdict } from './model.ts';
import type { Level } from '../spec/requirements.ts';

/** `absent`: the requirement is not in that report (the catalogue changed between the runs). */
export type VerdictOrAbsent = Verdict | 'absent';

export interface VerdictChange {
  readonly id: string;
  readonly level: Level;
  readonly section: string;
  readonly a: VerdictOrAbsent;
  readonly b: VerdictOrAbsent;
  /** regressed: fails in B, not in A · fixed: failed in A, passes in B · changed: anything else. */
  readonly kind: 'regressed' | 'fixed' | 'changed';
}

const kindOrder = { regressed: 0, changed: 1, fixed: 2 } as const;

/** The requirements whose verdict differs between `a` and `b`: regressions first, then in spec order. */
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
    changes.push({ id, level: r.level, section: r.section, a: va, b: vb, kind: vb === 'fail' ? 'regressed' : va === 'fail' && vb === 'pass' ? 'fixed' : 'changed' });
  }
  return changes.map((c, i) => [c, i] as const).sort(([x, i], [y, j]) => kindOrder[x.kind] - kindOrder[y.kind] || i - j).map(([c]) => c);
}

export interface ComparisonLabels {
  /** What to call each side in the header (e.g. the file paths or start times). */
  readonly a?: string;
  readonly b?: string;
}

const mark = { regressed: '✗', fixed: '✓', changed: '~' } as const;

/** The changes as a plain-text table for a terminal (no colours, so it pastes anywhere). */
export function formatComparison(changes: readonly VerdictChange[], labels: ComparisonLabels = {}): string {
  const a = labels.a ?? 'A';
  const b = labels.b ?? 'B';
  if (changes.length === 0) return `No requirement changed its verdict between ${a} and ${b}.\n`;
  const label = (v: VerdictOrAbsent): string => (v === 'absent' ? '(absent)' : verdictLabel[v]);
  const rows = changes.map((c) => [mark[c.kind], c.id, c.level, label(c.a), label(c.b)]);
  const header = ['', 'Requirement', 'Level', 'A', 'B'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  const count = (k: VerdictChange['kind']): number => changes.filter((c) => c.kind === k).length;
  return [
    `A: ${a}`,
    `B: ${b}`,
    '',
    line(header),
    line(widths.map((w) => '─'.repeat(w))),
    ...rows.map(line),
    '',
    `${changes.length} requirement${changes.length === 1 ? '' : 's'} changed: ${count('regressed')} regressed, ${count('fixed')} fixed, ${count('changed')} otherwise changed`,
    '',
  ].join('\n');
}
