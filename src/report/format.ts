/**
 * Words and numbers the writers share, so report.md, report.html, junit.xml and the terminal say
 * the same thing the same way.
 */
import { specSections } from '../spec/requirements.ts';
import type { Report, RequirementResult, Verdict } from './model.ts';

export const verdictLabel: Readonly<Record<Verdict, string>> = {
  pass: 'pass',
  fail: 'fail',
  inconclusive: 'inconclusive',
  skip: 'skip',
  'not-observable': 'not observable',
  'not-covered': 'not covered',
};

/** 192345 → "3 min 12 s"; 480 → "480 ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(s < 10 ? 1 : 0)} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${s % 60} s`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** 0.5714 → "57%"; null → "n/a". Never rounds a failing run up to 100%. */
export function formatRate(rate: number | null): string {
  if (rate === null) return 'n/a';
  const pct = Math.floor(rate * 1000) / 10;
  return `${Number.isInteger(pct) ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

/** "2025-11-22 05:37:00 UTC": readable, and the same for every reader. */
export function formatTimestamp(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The headline of a run, as the first line of every report. */
export function headline(report: Report): string {
  const s = report.summary;
  if (s.outcome === 'pass') {
    return s.requirements.fail > 0
      ? `Conforms: every exercised MUST requirement passes (${s.requirements.fail} SHOULD/MAY failing)`
      : 'Conforms: every exercised requirement passes';
  }
  const reasons = [
    s.byLevel.MUST.fail > 0 && `${s.byLevel.MUST.fail} MUST requirement${s.byLevel.MUST.fail === 1 ? '' : 's'} failing`,
    s.errors > 0 && `${s.errors} run error${s.errors === 1 ? '' : 's'}`,
    s.byLevel.MUST.fail === 0 && s.errors === 0 && 'a test without requirements failed',
  ].filter((r): r is string => typeof r === 'string');
  return `Does not conform: ${reasons.join(', ')}`;
}

/** The failing requirements, MUST before SHOULD before MAY, each level in spec order. */
export function failingFirstByLevel(requirements: readonly RequirementResult[]): RequirementResult[] {
  const rank = { MUST: 0, SHOULD: 1, MAY: 2 } as const;
  return requirements.filter((r) => r.verdict === 'fail').sort((a, b) => rank[a.level] - rank[b.level]);
}

export interface SectionGroup {
  readonly section: string;
  readonly requirements: readonly RequirementResult[];
}

/** Requirements grouped by spec section, in the spec's order (unknown sections last, as read). */
export function bySection(requirements: readonly RequirementResult[]): SectionGroup[] {
  const order = [...specSections as readonly string[], ...requirements.map((r) => r.section)];
  const sections = [...new Set(order)];
  return sections.map((section) => ({ section, requirements: requirements.filter((r) => r.section === section) })).filter((g) => g.requirements.length > 0);
}

/** The anchor of a section (as GitHub derives one from the heading text). */
export function sectionAnchor(section: string): string {
  return section.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
}

/**
 * A one-line curl command (as src/client/curl.ts writes it) split into one flag per line with `\`
 * continuations; still one valid shell command. Anything it cannot tokenise comes back unchanged.
 */
export function prettyCurl(curl: string): string {
  const tokens: string[] = [];
  let i = 0;
  while (i < curl.length) {
    if (curl[i] === ' ') {
      i++;
      continue;
    }
    let token = '';
    while (i < curl.length && curl[i] !== ' ') {
      if (curl[i] === '\\') {
        token += curl.slice(i, i + 2);
        i += 2;
      } else if (curl[i] === "'") {
        const end = curl.indexOf("'", i + 1);
        if (end < 0) return curl;
        token += curl.slice(i, end + 1);
        i = end + 1;
      } else {
        token += curl[i];
        i++;
      }
    }
    tokens.push(token);
  }
  const lines: string[] = [];
  for (const token of tokens) {
    const last = lines.length - 1;
    const startsLine = lines.length === 0 || (token.startsWith('-') && !['-X', '-sS', '-i'].includes(token)) || (token.startsWith("'http") && last >= 0);
    if (startsLine || last < 0) lines.push(token);
    else lines[last] = `${lines[last]} ${token}`;
  }
  return lines.join(' \\\n  ');
}
