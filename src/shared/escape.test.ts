import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cdata,
  codeCell,
  escapeHtml,
  escapeXmlAttr,
  fence,
  inlineCode,
  markdownCell,
  markdownHtml,
  markdownText,
  terminalLine,
  terminalText,
  xmlSafe,
} from './escape.ts';
import { activeMarkdown, activeText, outsideCodeSpans, outsideFences, tableCells } from './markdown-scan.ts';

/** What a hostile target writes into every string it can. */
const hostile = {
  osc0: '\x1b]0;pwned\x07',
  clear: '\x1b[2J',
  osc8: '\x1b]8;;http://x\x1b\\x\x1b]8;;\x1b\\',
  c1: '\x9b2J',
  rlo: 'abc\u202Etxt.exe',
  image: '![px](http://evil/p.png)',
  link: '[x](javascript:alert(1))',
  html: '<img src=x onerror=alert(1)>',
  autolink: '<http://evil>',
  bare: 'see https://evil.example/ now',
  www: 'go www.evil.example',
  mail: 'mail x@evil.example',
  cdataEnd: ']]>',
  nul: 'a\x00b',
  ticks: '``` `x` \\` ``',
  pipes: 'a|b\\|c',
} as const;

// C0 and C1 controls, DEL and the bidi controls, but for the characters in `keep`.
const controlsBut = (keep: string) => new RegExp(`[^\\P{Cc}${keep}]|\\p{Bidi_Control}`, 'u');

const controls = ['\x1b', '\x07', '\x9b', '\x7f', '\r', '\n', '\t', '\u2066', '\u200f'];
const punctuation = ['`', '\\', '[', ']', '(', ')', '!', '<', '>', '&', '|', '@', ':'];

/** Strings rich in what breaks each format, mixed with arbitrary Unicode. */
const nasty = fc
  .array(
    fc.oneof(
      fc.constantFrom(...Object.values(hostile), ...controls, ...punctuation, '//', 'www.', 'https://e.x'),
      fc.string({ unit: 'binary', maxLength: 6 }),
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''));

describe('terminal', () => {
  it.each<[string, string, string]>([
    ['OSC 0 (window title)', hostile.osc0, '\\x1b]0;pwned\\x07'],
    ['CSI 2J (clear screen)', hostile.clear, '\\x1b[2J'],
    ['OSC 8 (hyperlink)', hostile.osc8, '\\x1b]8;;http://x\\x1b\\x\\x1b]8;;\\x1b\\'],
    ['C1 CSI', hostile.c1, '\\x9b2J'],
    ['a bidi override', hostile.rlo, 'abc\\u202etxt.exe'],
    ['NUL and DEL', 'a\x00b\x7f', 'a\\x00b\\x7f'],
    ['a lone CR (overwrites the line)', 'ok\rFAIL', 'ok\\x0dFAIL'],
    ['CRLF', 'a\r\nb', 'a\nb'],
    ['tabs and line feeds', 'a\tb\nc', 'a\tb\nc'],
    ['Unicode text', 'ü → ✓ 漢字 😀', 'ü → ✓ 漢字 😀'],
  ])('terminalText shows %s, never obeys it', (_name, input, want) => {
    expect(terminalText(input)).toBe(want);
  });

  it('terminalLine keeps it on one line', () => {
    expect(terminalLine('401 X\ntryon-conformance: all good')).toBe('401 X\\x0atryon-conformance: all good');
  });

  it('never lets a control character through, and is idempotent', () => {
    fc.assert(
      fc.property(nasty, (s) => {
        const text = terminalText(s);
        expect(text).not.toMatch(controlsBut('\\n\\t'));
        expect(terminalLine(s)).not.toMatch(controlsBut('\\t'));
        expect(terminalText(text)).toBe(text);
      }),
    );
  });
});

describe('Markdown', () => {
  it.each<[string, string, string]>([
    ['an image', hostile.image, '!\\[px\\](`http://evil/p.png)`'],
    ['a javascript: link', hostile.link, '\\[x\\](javascript:alert(1))'],
    ['raw HTML', hostile.html, '&lt;img src=x onerror=alert(1)&gt;'],
    ['an autolink', hostile.autolink, '&lt;`http://evil>`'],
    ['a bare URL', hostile.bare, 'see `https://evil.example/` now'],
    ['a www. address', hostile.www, 'go `www.evil.example`'],
    ['an e-mail address', hostile.mail, 'mail `x@evil.example`'],
    ['a URL after an underscore', 'a_https://evil.example', 'a_`https://evil.example`'],
    ['backticks and backslashes', 'a `b` \\[c]', 'a \\`b\\` \\\\\\[c\\]'],
    ['controls', `${hostile.osc0} ${hostile.c1}`, '\\\\x1b\\]0;pwned\\\\x07 \\\\x9b2J'],
    ['plain words', 'status differs: expected 200, received 201', 'status differs: expected 200, received 201'],
  ])('markdownText makes %s inert', (_name, input, want) => {
    expect(markdownText(input)).toBe(want);
  });

  it.each<[string, string, string]>([
    ['an image', hostile.image, '`![px](http://evil/p.png)`'],
    ['OSC 0', hostile.osc0, '`\\x1b]0;pwned\\x07`'],
    ['backticks', 'a `b` c', '``a `b` c``'],
    ['a leading backtick', '`x', '`` `x ``'],
    ['line breaks', 'a\r\nb\nc', '`a b c`'],
  ])('inlineCode holds %s as code', (_name, input, want) => {
    expect(inlineCode(input)).toBe(want);
  });

  it('markdownHtml is HTML text, and inert if read as Markdown', () => {
    const html = markdownHtml(`${hostile.image} ${hostile.html}\n\n${hostile.www} ${hostile.mail}`);
    expect(html.split(' ')).toEqual([
      '&#33;&#91;px&#93;(http&#58;//evil/p.png)',
      '&lt;img',
      'src=x',
      'onerror=alert(1)&gt;',
      '',
      'go',
      'www&#46;evil.example',
      'mail',
      'x&#64;evil.example',
    ]);
  });

  it('markdownCell and codeCell keep a table row whole', () => {
    expect(markdownCell(hostile.pipes)).toBe('a\\|b\\\\\\|c');
    expect(markdownCell('a\nb')).toBe('a<br>b');
    expect(codeCell('a|b')).toBe('`a\\|b`');
  });

  it('fence shows controls and cannot be closed from inside', () => {
    const block = fence(`${hostile.clear}\n\`\`\`\n${hostile.image}`, 'text');
    expect(block).toBe('````text\n\\x1b[2J\n```\n![px](http://evil/p.png)\n````');
  });

  it('the scanner finds what would render: links, code spans, fences', () => {
    expect(outsideCodeSpans('a `[x](y)` \\[b\\] ``c`d`` `e')).toBe('a  ·b·  `e');
    expect(outsideFences('a\n  ```sh\n[x](y)\n  ```\nb')).toEqual({ text: 'a\nb', unclosed: false });
    expect(activeMarkdown('![p](http://e) `ok`')).toBe('![p](http://e) ');
    // GFM splits a row at a pipe before it reads code spans: a code span with a bare pipe is broken.
    expect(tableCells('| `a|b` | `c\\|d` |')).toEqual([' `a', 'b` ', ' `c|d` ']);
    expect(activeMarkdown('| `a|[x](y)` |')).toBe(' `a | [x](y)` ');
  });

  /** What must never be active in a fragment from a target: a link, an image, raw HTML, an autolink, a control. */
  function expectInert(md: string): void {
    const active = activeText(md).replace(/<br>/g, ' ');
    expect(active).not.toMatch(/[[\]<`]/);
    expect(active).not.toMatch(/[a-z][a-z0-9+.-]*:\/\/|www\.|[\w.+-]+@[\w-]+\.\w/i);
    expect(md).not.toMatch(controlsBut('\\n\\t'));
  }

  it('markdownText, markdownCell and markdownHtml never yield a link, image, raw HTML, autolink or control', () => {
    fc.assert(
      fc.property(nasty, (s) => {
        expectInert(markdownHtml(s));
        expect(markdownHtml(s)).not.toContain('\n');
        expectInert(markdownText(s));
        const cell = markdownCell(s);
        expectInert(cell);
        expect(cell).not.toContain('\n');
        // Every pipe is escaped: GitHub's table reads a backslash right before a pipe as its escape, in code spans too.
        expect(cell).not.toMatch(/(^|[^\\])\|/);
      }),
    );
  });

  it('a table row of a markdownCell and a codeCell keeps its two cells, and both inert', () => {
    fc.assert(
      fc.property(nasty, (s) => {
        fc.pre(s.trim() !== '');
        const row = `| ${markdownCell(s)} | ${codeCell(s)} |`;
        const cells = tableCells(row);
        expect(cells).toHaveLength(2);
        expectInert(cells[0] ?? '');
        expect(outsideCodeSpans(cells[1] ?? '').trim()).toBe('');
      }),
    );
  });

  it('inlineCode and codeCell are one code span, whatever they hold', () => {
    fc.assert(
      fc.property(nasty, (s) => {
        fc.pre(s.trim() !== '');
        expect(activeText(inlineCode(s))).toBe('');
        expect(activeText(codeCell(s)).replace(/·/g, '')).toBe('');
        expect(codeCell(s)).not.toMatch(/(^|[^\\])\|/);
        expect(inlineCode(s)).not.toMatch(controlsBut('\\t'));
      }),
    );
  });

  it('a fence is closed only by its own bar, and carries no control', () => {
    fc.assert(
      fc.property(nasty, (s) => {
        const block = fence(s, 'text');
        expect(outsideFences(block)).toEqual({ text: '', unclosed: false });
        expect(block).not.toMatch(controlsBut('\\n\\t'));
      }),
    );
  });
});

/** What an XML parser reads from a run of CDATA sections: each ends at its first `]]>`. */
function cdataContent(xml: string): string {
  let rest = xml;
  let text = '';
  while (rest !== '') {
    expect(rest.startsWith('<![CDATA[')).toBe(true);
    const end = rest.indexOf(']]>');
    text += rest.slice('<![CDATA['.length, end);
    rest = rest.slice(end + 3);
  }
  return text;
}

describe('HTML and XML', () => {
  it.each<[string, string, string]>([
    ['a tag', hostile.html, '&lt;img src=x onerror=alert(1)&gt;'],
    ['quotes', `"a" 'b'`, '&quot;a&quot; &#39;b&#39;'],
    ['controls', `${hostile.clear}\x00\x9b\u202e`, '\\x1b[2J\\x00\\x9b\\u202e'],
    ['whitespace', 'a\tb\r\nc', 'a\tb\r\nc'],
  ])('escapeHtml: %s', (_name, input, want) => {
    expect(escapeHtml(input)).toBe(want);
  });

  it.each<[string, string, string]>([
    ['NUL and ESC', 'a\x00b\x1bc', 'a\uFFFDb\uFFFDc'],
    ['DEL and C1', 'a\x7fb\x9bc', 'a\uFFFDb\uFFFDc'],
    ['text', 'ü <x> & ]]>', 'ü <x> & ]]>'],
  ])('xmlSafe: %s', (_name, input, want) => {
    expect(xmlSafe(input)).toBe(want);
  });

  it('cdata splits ]]>', () => {
    expect(cdata(`a${hostile.cdataEnd}b`)).toBe('<![CDATA[a]]]]><![CDATA[>b]]>');
  });

  it('never lets markup or a control through', () => {
    fc.assert(
      fc.property(nasty, (s) => {
        expect(escapeHtml(s)).not.toMatch(/[<>"']/);
        expect(escapeHtml(s)).not.toMatch(controlsBut('\\t\\n\\r'));
        const attr = escapeXmlAttr(s);
        expect(attr).not.toMatch(/[<>"\t\n\r]|[^\P{Cc}]/u);
        // Every & opens a reference.
        expect(attr).not.toMatch(/&(?!amp;|lt;|gt;|quot;|#10;|#13;|#9;)/);
        expect(cdataContent(cdata(s))).toBe(xmlSafe(s));
      }),
    );
  });
});
