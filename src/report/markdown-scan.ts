/**
 * For the tests of the Markdown the toolkit writes (report.md, the step summary, client-grade.md):
 * the text GitHub would still read as Markdown once fenced code blocks, code spans and
 * backslash-escaped characters are taken out. Whatever link, image, raw HTML or autolink a target
 * smuggled in would have to show there. A small scanner of CommonMark's rules for these three
 * constructs, not a renderer: code spans are paired within a line (the writers never span lines).
 */

/** `md` without its fenced code blocks (a fence opens with 3+ backticks, up to 3 spaces in, and closes with as many or more). */
export function outsideFences(md: string): { text: string; unclosed: boolean } {
  const kept: string[] = [];
  let open: string | undefined;
  for (const line of md.split('\n')) {
    const bar = /^\s{0,3}(`{3,})/.exec(line)?.[1];
    if (open === undefined && bar !== undefined) open = bar;
    else if (open !== undefined && bar !== undefined && line.trim() === bar && bar.length >= open.length) open = undefined;
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

/** What GitHub would read as Markdown in `md`: outside fences and code spans, escapes taken out. */
export function activeMarkdown(md: string): string {
  return outsideFences(md).text.split('\n').map(outsideCodeSpans).join('\n');
}
