/**
 * Words and numbers the writers share, so report.md, report.html, junit.xml and the terminal say
 * the same thing the same way.
 */
import { specSections } from '../contract/requirements.ts';
import { expectationCounts, isExpectedFailure, strictStale } from './expectations.ts';
import type { ChoiceResult, Report, RequirementResult, Verdict } from './model.ts';

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

/** The headline of a run, as the first line of every report ("Title: detail"); an interrupted run says so first. */
export function headline(report: Report): string {
  const verdicts = outcomeHeadline(report);
  const stop = report.interrupted;
  if (stop === undefined) return verdicts;
  const judged = report.summary.requirements.pass + report.summary.requirements.fail;
  const head = `Interrupted: ${stop.reason} at ${formatTimestamp(stop.at)}`;
  return judged === 0 && report.summary.errors === 0
    ? `${head}; no requirement was judged before it`
    : `${head}; the verdicts so far, of the tests that ran: ${verdicts}`;
}

function outcomeHeadline(report: Report): string {
  const s = report.summary;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const binding = bindingFailures(report.requirements).length;
  const expected = report.requirements.filter(isExpectedFailure).length;
  const others = s.requirements.fail - binding - expected;
  const inconclusive = s.requirements.inconclusive > 0 ? `${s.requirements.inconclusive} inconclusive` : undefined;
  if (s.outcome === 'error' && s.errors === 0) {
    return `Run error: no requirement was judged; every test that ran stopped before judging (${s.requirements.inconclusive} inconclusive)`;
  }
  if (s.outcome === 'error') {
    const also = [binding > 0 && `${plural(binding, 'MUST requirement')} failing`, inconclusive].filter(
      (r): r is string => typeof r === 'string',
    );
    return `Run error: ${plural(s.errors, 'error')} of the run itself; the verdicts are incomplete${also.length === 0 ? '' : ` (${also.join(', ')})`}`;
  }
  if (s.outcome === 'pass') {
    const notes = [others > 0 && `${others} SHOULD/MAY or implementation-defined failing`, inconclusive].filter(
      (r): r is string => typeof r === 'string',
    );
    const known = expectationNotes(report);
    if (expected > 0 || known.length > 0) {
      const all = [...known, ...notes].join(', ');
      return `Passes with known failures: every judged MUST requirement passes or is an expected failure (${all})`;
    }
    if (notes.length === 0) return 'Conforms: every exercised requirement passes';
    return `Conforms: every judged MUST requirement passes (${notes.join(', ')})`;
  }
  const stale = strictStale(report).length;
  const reasons = [
    binding > 0 && `${plural(binding, 'MUST requirement')} failing`,
    stale > 0 && `${plural(stale, 'stale expectation')} (--strict-expect: ${expectationNotes(report).join(', ')})`,
    binding === 0 && stale === 0 && 'a test without requirements failed',
  ].filter((r): r is string => typeof r === 'string');
  return `Does not conform: ${reasons.join(', ')}`;
}

/** The expectations file's counts worth a headline: `12 expected failures, 1 unexpectedly passing`. */
function expectationNotes(report: Report): string[] {
  if (report.expectations === undefined) return [];
  const c = expectationCounts(report);
  return [
    c.failing > 0 && `${c.failing} expected failure${c.failing === 1 ? '' : 's'}`,
    c['unexpectedly-passing'] > 0 && `${c['unexpectedly-passing']} unexpectedly passing`,
    c.expired > 0 && `${c.expired} expired`,
  ].filter((r): r is string => typeof r === 'string');
}

/**
 * The failures that decide the outcome: MUST requirements the spec's own words make (not
 * implementation-defined), except those the run's expectations file names.
 */
export function bindingFailures(requirements: readonly RequirementResult[]): RequirementResult[] {
  return requirements.filter(
    (r) => r.verdict === 'fail' && r.level === 'MUST' && r.implementationDefined !== true && r.expected === undefined,
  );
}

/** The outcome as a mark: ✓ pass, ✗ fail, ! error. */
export const outcomeMark: Readonly<Record<Report['summary']['outcome'], string>> = { pass: '✓', fail: '✗', error: '!' };

/** A choice's values as one line: `409 IDEMPOTENCY_KEY_CONFLICT (×2); 422 IDEMPOTENCY_KEY_REUSED`. */
export function choiceValues(c: ChoiceResult): string {
  return c.values.map((v) => (v.count > 1 ? `${v.value} (×${v.count})` : v.value)).join('; ');
}

/** Every test that recorded a choice, once. */
export function choiceTests(c: ChoiceResult): string[] {
  return [...new Set(c.values.flatMap((v) => v.tests))];
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
  const order = [...(specSections as readonly string[]), ...requirements.map((r) => r.section)];
  const sections = [...new Set(order)];
  return sections
    .map((section) => ({ section, requirements: requirements.filter((r) => r.section === section) }))
    .filter((g) => g.requirements.length > 0);
}

/** The anchor of a section (as GitHub derives one from the heading text). */
export function sectionAnchor(section: string): string {
  return section
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
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
      } else if (curl[i] === '"') {
        // A double-quoted word (one holding a "$TRYON_API_KEY" placeholder): \ escapes the next character.
        let end = i + 1;
        while (end < curl.length && curl[end] !== '"') end += curl[end] === '\\' ? 2 : 1;
        if (end >= curl.length) return curl;
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
    const startsLine =
      lines.length === 0 ||
      (token.startsWith('-') && !['-X', '-sS', '-i'].includes(token)) ||
      (/^['"]http/.test(token) && last >= 0);
    if (startsLine || last < 0) lines.push(token);
    else lines[last] = `${lines[last]} ${token}`;
  }
  return lines.join(' \\\n  ');
}
