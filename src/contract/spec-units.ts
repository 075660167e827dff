/**
 * Splits the prose spec into rule units: the smallest pieces that can each carry a rule. A test
 * holds every unit against the requirement catalogue, so a rule without a requirement fails it.
 */
import { specSections, type SpecSection } from './requirements.ts';

/** Where a unit sits: one of the nine `##` parts, or the preamble before the first of them. */
export type SpecPart = SpecSection | 'Preamble';

export type UnitKind = 'bullet' | 'row' | 'rule' | 'paragraph';

export interface SpecUnit {
  readonly section: SpecPart;
  /** The `###` heading the unit sits under, when there is one. */
  readonly subsection?: string;
  readonly kind: UnitKind;
  /** The unit's markdown source with whitespace collapsed; a table row keeps its pipes. */
  readonly text: string;
  /** 1-based line of the spec where the unit starts. */
  readonly line: number;
}

/**
 * Units that carry no requirement, keyed by a distinctive substring, with the reason. Everything
 * else in the spec is a rule.
 */
export const informational: Readonly<Record<string, string>> = Object.freeze({
  'This single document covers the whole service':
    'Introduction: names the service; every behaviour it sums up is stated again in its own section.',
  'All nine parts are below.': 'Document structure.',
  'The host part of {base_url} is written {host}.': 'Notation for the {host} placeholder used by other rules.',
  'It is meant for custom storefronts': 'Audience and positioning; describes who calls the API, not how it behaves.',
  'Defined under Endpoints (create try-on).': 'Cross-reference; the request fields are catalogued under POST /tryons.',
  'Request headers:': 'Lead-in label for the table that follows.',
  'Request body (JSON):': 'Lead-in label for the table that follows.',
  'Rules:': 'Lead-in label for the numbered rules that follow.',
  'Responses:': 'Lead-in label for the table that follows.',
});

const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[A-Z`{("\d])/;
const TABLE_SEPARATOR = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$/;

/** Collapses runs of whitespace to one space and trims, as every comparison with the spec does. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Splits prose into sentences: after `.`, `!` or `?` when the next word starts a sentence. */
export function splitSentences(text: string): string[] {
  return text
    .split(SENTENCE_BREAK)
    .map(collapseWhitespace)
    .filter((s) => s !== '');
}

function asSpecSection(heading: string, line: number): SpecSection {
  const found = specSections.find((s) => s === heading);
  if (found === undefined) {
    throw new Error(`spec line ${line}: "## ${heading}" is not one of the nine sections the catalogue knows`);
  }
  return found;
}

interface Open {
  kind: UnitKind;
  start: number;
  lines: string[];
}

/**
 * Splits the spec markdown into rule units (all nine sections and the preamble): every bullet
 * item, table body row, numbered-list item, and every sentence of a plain paragraph. Headings,
 * table header and separator rows, and blank lines are not units.
 */
export function parseSpecUnits(markdown: string): SpecUnit[] {
  const units: SpecUnit[] = [];
  let section: SpecPart = 'Preamble';
  let subsection: string | undefined;
  let open: Open | undefined;
  let tableRows = 0;
  let inFence = false;

  const push = (kind: UnitKind, text: string, line: number): void => {
    units.push({
      section,
      ...(subsection === undefined ? {} : { subsection }),
      kind,
      text: collapseWhitespace(text),
      line,
    });
  };

  const flush = (): void => {
    if (open === undefined) return;
    if (open.kind === 'paragraph') {
      // Sentences keep their own line, so a reader can find each one in the spec.
      const joined = open.lines.join('\n');
      let cursor = 0;
      for (const piece of joined.split(SENTENCE_BREAK)) {
        const at = joined.indexOf(piece, cursor);
        cursor = at + piece.length;
        if (piece.trim() !== '') push('paragraph', piece, open.start + (joined.slice(0, at).match(/\n/g)?.length ?? 0));
      }
    } else {
      push(open.kind, open.lines.join(' '), open.start);
    }
    open = undefined;
  };

  markdown.split(/\r?\n/).forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trimEnd();
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    if (line.trim() === '') {
      flush();
      tableRows = 0;
      return;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*$/.exec(line);
    if (heading) {
      flush();
      tableRows = 0;
      const level = heading[1]?.length ?? 0;
      const title = heading[2] ?? '';
      if (level === 2) {
        section = asSpecSection(title, lineNo);
        subsection = undefined;
      } else if (level >= 3) {
        subsection = title;
      }
      return;
    }
    if (line.trimStart().startsWith('|')) {
      flush();
      tableRows += 1;
      const cells = line.trim();
      if (tableRows === 1 || (tableRows === 2 && TABLE_SEPARATOR.test(cells))) return;
      push('row', cells, lineNo);
      return;
    }
    tableRows = 0;
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      flush();
      open = { kind: bullet ? 'bullet' : 'rule', start: lineNo, lines: [item[1] ?? ''] };
      return;
    }
    // A line right after a list item continues it (indented or lazy continuation).
    if (open === undefined) open = { kind: 'paragraph', start: lineNo, lines: [] };
    open.lines.push(line.trim());
  });
  flush();
  return units;
}
