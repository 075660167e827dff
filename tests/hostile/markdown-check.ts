/**
 * What a Markdown file (report.md, a GitHub step summary) would render live: the text outside fenced
 * code blocks and code spans, read as CommonMark and GFM read it (table rows split into cells first,
 * backslash escapes taken out). In that text it finds images, links, autolinks, link reference
 * definitions, raw HTML that loads or runs something, and bare URLs of a foreign origin (GFM links
 * them); anywhere in the file, ESC, BEL and C1 control characters. Written for the tests, so that
 * the check does not share code with the report writer it judges.
 */

export interface MarkdownFinding {
  readonly line: number;
  readonly what: string;
  /** The live text around it (code spans blanked), cut short. */
  readonly excerpt: string;
}

const loadingOrRunning = [
  'img|script|svg|iframe|a|link|object|embed|video|audio',
  'source|style|form|input|base|meta|math|picture|frame',
].join('|');
const dangerousTag = new RegExp(`<\\s*\\/?\\s*(${loadingOrRunning})\\b`, 'i');
/** CommonMark autolink: `<scheme:…>` with a scheme of 2-32 characters. */
const autolink = /<[a-z][a-z0-9+.-]{1,31}:[^\s<>]*>/i;
const referenceDefinition = /^ {0,3}\[[^\]]+\]:/;
const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const controls = /[\u001b\u0007\u0080-\u009f]/;

/**
 * Every live image, link or raw HTML in `markdown`, and every control character; `foreignOrigins`
 * are origins no link may name.
 */
export function markdownFindings(markdown: string, foreignOrigins: readonly string[] = []): MarkdownFinding[] {
  const findings: MarkdownFinding[] = [];
  const lines = markdown.split(/\r\n|\r|\n/);
  lines.forEach((line, i) => {
    const control = controls.exec(line);
    if (!control) return;
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    findings.push({ line: i + 1, what: `control character U+${code}`, excerpt: excerpt(line, control.index) });
  });
  for (const block of liveBlocks(lines)) {
    for (const text of block) findings.push(...liveFindings(text.text, text.line, foreignOrigins));
  }
  return findings;
}

/** The findings grouped by what they are: how many, and the first one's line and excerpt (a short failure message). */
export function summarize(findings: readonly MarkdownFinding[]): Record<string, string> {
  const byWhat: Record<string, string> = {};
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.what, (counts.get(f.what) ?? 0) + 1);
  for (const f of findings) byWhat[f.what] ??= `${counts.get(f.what)} time(s), first at line ${f.line}: ${f.excerpt}`;
  return byWhat;
}

interface LiveLine {
  readonly line: number;
  readonly text: string;
}

/**
 * The file's blocks outside fenced code, each a list of its lines with code spans blanked and
 * escaped punctuation replaced. A paragraph's code spans may cross its lines, so a paragraph is
 * read as one text; a table row is read cell by cell, as GFM splits it before any inline parsing.
 */
function liveBlocks(lines: readonly string[]): LiveLine[][] {
  const blocks: LiveLine[][] = [];
  let paragraph: Array<{ line: number; text: string }> = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push(blankInline(paragraph));
    paragraph = [];
  };
  let open: { char: string; length: number } | undefined;
  lines.forEach((raw, i) => {
    const line = i + 1;
    const fenced = fence.exec(raw);
    if (open) {
      const run = fenced?.[1];
      if (run && run[0] === open.char && run.length >= open.length && fenced?.[2]?.trim() === '') open = undefined;
      return;
    }
    if (fenced?.[1] && !(fenced[1][0] === '`' && fenced[2]?.includes('`'))) {
      flush();
      open = { char: fenced[1][0] ?? '`', length: fenced[1].length };
      return;
    }
    const text = raw.replace(/^ {0,3}(> ?)+/, '');
    if (text.trim() === '') return flush();
    if (/^ {0,3}\|/.test(text)) {
      flush();
      blocks.push(splitCells(text).map((cell) => blankInline([{ line, text: cell }])[0] ?? { line, text: '' }));
      return;
    }
    // Headings and list items start blocks of their own.
    if (/^ {0,3}(#{1,6}(\s|$)|[-*+]\s|\d{1,9}[.)]\s)/.test(text)) flush();
    paragraph.push({ line, text });
    if (/^ {0,3}#{1,6}(\s|$)/.test(text)) flush();
  });
  flush();
  return blocks;
}

/** A GFM table row's cells: split at every `|` that no backslash escapes (code spans included). */
function splitCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < row.length; i++) {
    const c = row[i];
    if (c === '\\' && row[i + 1] === '|') {
      cell += '\\|';
      i++;
    } else if (c === '|') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** The lines of one inline block with code spans blanked and backslash-escaped punctuation replaced by `_`. */
function blankInline(lines: ReadonlyArray<{ line: number; text: string }>): LiveLine[] {
  const joined = lines.map((l) => l.text).join('\n');
  let out = '';
  for (let i = 0; i < joined.length; ) {
    const c = joined[i] ?? '';
    if (c === '\\' && /[!-/:-@[-`{-~]/.test(joined[i + 1] ?? '')) {
      out += '__';
      i += 2;
      continue;
    }
    if (c === '`') {
      let n = 0;
      while (joined[i + n] === '`') n++;
      const close = closingRun(joined, i + n, n);
      if (close < 0) {
        out += '`'.repeat(n);
        i += n;
        continue;
      }
      // A code span: its text is shown as code, never rendered; keep its line breaks.
      out += joined.slice(i, close + n).replace(/[^\n]/g, ' ');
      i = close + n;
      continue;
    }
    out += c;
    i++;
  }
  const split = out.split('\n');
  return lines.map((l, k) => ({ line: l.line, text: split[k] ?? '' }));
}

/** Where a run of exactly `n` backticks starts at or after `from`, or -1. */
function closingRun(text: string, from: number, n: number): number {
  for (let i = text.indexOf('`', from); i >= 0; i = text.indexOf('`', i)) {
    let m = 0;
    while (text[i + m] === '`') m++;
    if (m === n) return i;
    i += m;
  }
  return -1;
}

function liveFindings(text: string, line: number, foreignOrigins: readonly string[]): MarkdownFinding[] {
  const found: MarkdownFinding[] = [];
  const add = (what: string, index: number) => found.push({ line, what, excerpt: excerpt(text, index) });
  const image = text.indexOf('![');
  if (image >= 0) add('an image (![) outside code', image);
  const link = text.indexOf('](');
  if (link >= 0) add('an inline link or image (]() outside code', link);
  const auto = autolink.exec(text);
  if (auto) add(`an autolink ${auto[0].slice(0, 40)} outside code`, auto.index);
  const tag = dangerousTag.exec(text);
  if (tag) add(`raw HTML <${tag[1]}> outside code`, tag.index);
  if (referenceDefinition.test(text)) add('a link reference definition outside code', 0);
  for (const origin of foreignOrigins) {
    const at = text.indexOf(origin);
    if (at >= 0) add(`a URL of ${origin} outside code (GFM links it)`, at);
  }
  return found;
}

function excerpt(text: string, index: number): string {
  return JSON.stringify(text.slice(Math.max(0, index - 30), index + 60));
}
