/**
 * For the tests of the Markdown the toolkit writes (report.md, the step summary, client-grade.md): the text
 * GitHub would still read as Markdown once fenced code blocks, code spans and backslash escapes are taken
 * out, where any link, image, raw HTML or autolink a target smuggled in would show. A small scanner of
 * CommonMark's and GFM's rules, not a renderer: code spans pair within a line or cell (writers never span lines).
 */

/** `md` without its fenced code blocks (3+ backticks, up to 3 spaces in, closed by as many or more). */
export function outsideFences(md: string): { text: string; unclosed: boolean } {
  const kept: string[] = [];
  let open: string | undefined;
  for (const line of md.split('\n')) {
    const bar = /^\s{0,3}(`{3,})/.exec(line)?.[1];
    if (open === undefined && bar !== undefined) open = bar;
    else if (open !== undefined && line.trim() === bar && (bar?.length ?? 0) >= open.length) open = undefined;
    else if (open === undefined) kept.push(line);
  }
  return { text: kept.join('\n'), unclosed: open !== undefined };
}

/** One line without its code spans; an escaped character becomes `·`, an unpaired backtick run stays. */
export function outsideCodeSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const ch = line[i] ?? '';
    if (ch === '\\' && /[!-/:-@[-`{-~]/.test(line[i + 1] ?? '')) {
      out += '·';
      i += 2;
      continue;
    }
    if (ch !== '`') {
      out += ch;
      i++;
      continue;
    }
    const run = /^`+/.exec(line.slice(i))?.[0] ?? '`';
    const close = closingRun(line, i + run.length, run.length);
    if (close === undefined) {
      out += run;
      i += run.length;
    } else i = close + run.length;
  }
  return out;
}

/** Where a run of exactly `n` backticks starts at or after `from`, if anywhere. */
function closingRun(line: string, from: number, n: number): number | undefined {
  for (const m of line.slice(from).matchAll(/`+/g)) if (m[0].length === n) return from + m.index;
  return undefined;
}

/**
 * A table row's cells as GFM splits them, before it reads any code span: at every pipe no backslash
 * stands right before (in code spans too), each `\|` then read as `|`.
 */
export function tableCells(row: string): string[] {
  return row
    .replace(/^\s*\|/, '')
    .replace(/(^|[^\\])\|\s*$/, '$1')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.replace(/\\\|/g, '|'));
}

/** What GitHub would read as Markdown in prose or one table cell: outside fences and code spans, escapes out. */
export function activeText(md: string): string {
  return outsideFences(md).text.split('\n').map(outsideCodeSpans).join('\n');
}

/** What GitHub would read as Markdown in a file: {@link activeText}, a line that opens with `|` read as a table row. */
export function activeMarkdown(md: string): string {
  const line = (text: string): string =>
    text.trimStart().startsWith('|') ? tableCells(text).map(outsideCodeSpans).join(' | ') : outsideCodeSpans(text);
  return outsideFences(md).text.split('\n').map(line).join('\n');
}
