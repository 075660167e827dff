/**
 * The one escaping layer, one function family per output format: terminal, Markdown, HTML, XML.
 * Everything the toolkit prints or writes that came from a target (bodies, error codes, field
 * names, reasons, headers, even test names) is untrusted text and goes through one of these.
 */

// Characters that steer a terminal or reorder what is shown: C0 and C1 controls, DEL, and the
// Unicode bidi controls (overrides, embeddings, isolates, marks).
const controlChars = /[\p{Cc}\p{Bidi_Control}]/gu;

/** ESC as the four characters `\x1b`, U+202E as `\u202e`: the character named, never obeyed. */
function visible(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every control character except those in `keep`, shown by its escape; idempotent. */
function withoutControls(text: string, keep: string): string {
  return text.replace(controlChars, (ch) => (keep.includes(ch) ? ch : visible(ch)));
}

/**
 * Text for a terminal: no byte of it can move the cursor, clear the screen, set the window title,
 * make an OSC 8 hyperlink or ring the bell. Controls (ESC, BEL, CSI 0x9B, a lone CR, DEL …) and bidi
 * overrides are shown as `\x1b`-style escapes; line feeds and tabs stay, CRLF becomes LF.
 */
export function terminalText(text: string): string {
  return withoutControls(text.replace(/\r\n/g, '\n'), '\n\t');
}

/** {@link terminalText} on one line: a line feed is shown as `\x0a`, so a target cannot start a line of its own. */
export function terminalLine(text: string): string {
  return withoutControls(text.replace(/\r\n/g, '\n'), '\t');
}

// HTML text keeps tab, LF and CR; every other control is a parse error, and bidi overrides reorder text.
/** Text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return withoutControls(text, '\t\n\r')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

// XML 1.0 allows tab, LF, CR and U+0020 and up, minus surrogates and U+FFFE/U+FFFF; DEL and the C1
// controls it allows but discourages (XML 1.0, 2.2), and a terminal that shows a CI log obeys them.
const notXmlChar = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Replaces characters XML 1.0 cannot carry at all (even escaped), and DEL and C1, by U+FFFD. */
export function xmlSafe(text: string): string {
  return text.replace(notXmlChar, '\uFFFD');
}

/** Text for a double-quoted XML attribute; line breaks and tabs survive as character references. */
export function escapeXmlAttr(text: string): string {
  return xmlSafe(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

/** A CDATA section holding `text` verbatim; a `]]>` inside is split across two sections. */
export function cdata(text: string): string {
  return `<![CDATA[${xmlSafe(text).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/** Markdown text with controls shown (tabs and line feeds kept, CRLF as LF). */
function markdownSafe(text: string): string {
  return withoutControls(text.replace(/\r\n/g, '\n'), '\n\t');
}

// What GitHub turns into a link by itself (GFM's extended autolinks): a scheme and `://`, `www.`,
// an e-mail address, with what follows. Such runs go into code spans, where nothing links. The
// bounded runs before `:` and `@` keep the scan linear on a long word.
const autolinkable = /[a-z][a-z0-9+.-]{0,31}:\/\/[^\s`]*|www\.[^\s`]*|[\w.+-]{1,64}@[\w-]+(?:\.[\w-]+)+/gi;

/**
 * Text for Markdown prose, from any source: it never becomes a link, an image, raw HTML, an
 * autolink or a code span of its own. `& < >` become entities; `\`, backticks, `[` and `]` are
 * backslash-escaped (no link or image can open); bare URLs and e-mail addresses become code spans;
 * controls are shown as escapes. Line feeds stay.
 */
export function markdownText(text: string): string {
  const safe = markdownSafe(text);
  let out = '';
  let at = 0;
  for (const m of safe.matchAll(autolinkable)) {
    out += markdownPunctuation(safe.slice(at, m.index)) + inlineCode(m[0]);
    at = m.index + m[0].length;
  }
  return out + markdownPunctuation(safe.slice(at));
}

function markdownPunctuation(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`[\]]/g, '\\$&');
}

/** Text for one Markdown table cell: {@link markdownText}, and no line breaks or column breaks. */
export function markdownCell(text: string): string {
  return markdownText(text).replace(/\|/g, '\\|').replace(/\n/g, '<br>');
}

/** A fenced code block whose fence is longer than any run of backticks inside; controls are shown. */
export function fence(code: string, lang = ''): string {
  const text = markdownSafe(code);
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const bar = '`'.repeat(longest + 1);
  return `${bar}${lang}\n${text.replace(/\n$/, '')}\n${bar}`;
}

/** Inline code that survives backticks inside: a target's text shown as it is, never rendered. */
export function inlineCode(text: string): string {
  const oneLine = markdownSafe(text).replace(/\n/g, ' ');
  const longest = Math.max(0, ...[...oneLine.matchAll(/`+/g)].map((m) => m[0].length));
  const bar = '`'.repeat(longest + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : '';
  return `${bar}${pad}${oneLine}${pad}${bar}`;
}

/**
 * Text inside an HTML block of a Markdown file (`<details><summary>…`), where GitHub reads no
 * Markdown: {@link escapeHtml}, and the characters that would make a link, a code span or an
 * autolink as character references too, so that a renderer that reads Markdown there finds none;
 * on one line, since a blank line would end the block.
 */
export function markdownHtml(text: string): string {
  return escapeHtml(markdownSafe(text).replace(/\n/g, ' '))
    .replace(/[[\]`\\:@!]/g, (ch) => `&#${ch.charCodeAt(0)};`)
    .replace(/(w{3})\./gi, '$1&#46;');
}

/** {@link inlineCode} in a table cell: the pipes escaped too (GitHub's tables read `\|` inside code as `|`). */
export function codeCell(text: string): string {
  return inlineCode(text).replace(/\|/g, '\\|');
}
