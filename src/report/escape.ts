/**
 * Escaping for each output format. Everything in a report that came from a target (bodies, error
 * messages, even test names) is untrusted text and goes through one of these.
 */

/** Text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

// XML 1.0 allows tab, LF, CR and U+0020 and up, minus surrogates and U+FFFE/U+FFFF.
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Replaces characters XML 1.0 cannot carry at all (even escaped) by U+FFFD. */
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

/** Text for one Markdown table cell: no line breaks, no column breaks, no raw HTML. */
export function markdownCell(text: string): string {
  return markdownText(text).replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** Text for Markdown prose: GitHub renders raw HTML, so `<` and `&` are escaped. */
export function markdownText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A fenced code block whose fence is longer than any run of backticks inside. */
export function fence(code: string, lang = ''): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const bar = '`'.repeat(longest + 1);
  return `${bar}${lang}\n${code.replace(/\n$/, '')}\n${bar}`;
}

/** Inline code that survives backticks inside. */
export function inlineCode(text: string): string {
  const oneLine = text.replace(/\r?\n/g, ' ');
  const longest = Math.max(0, ...[...oneLine.matchAll(/`+/g)].map((m) => m[0].length));
  const bar = '`'.repeat(longest + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : '';
  return `${bar}${pad}${oneLine}${pad}${bar}`;
}
