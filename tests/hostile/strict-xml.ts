/**
 * A strict XML 1.0 well-formedness check for the report's junit.xml, written for the tests because
 * the one XML parser in node_modules (fast-xml-parser, a dependency of Prism's) accepts NUL, ESC,
 * `]]>` in text, `&#0;`, undeclared entities and two root elements. It knows no DTD: a DOCTYPE is an
 * error. Iterative, so any depth of nesting is checked without recursion.
 */

export type XmlVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly error: string; readonly line: number; readonly column: number };

class XmlError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

const nameStart = [
  'A-Za-z_:',
  '\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D',
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD',
].join('');
const nameRe = new RegExp(`[${nameStart}][${nameStart}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040]*`, 'y');
const predefined = new Set(['lt', 'gt', 'amp', 'apos', 'quot']);

/** Whether `code` is a Char of XML 1.0 (section 2.2). */
export function isXmlChar(code: number): boolean {
  if (code === 0x9 || code === 0xa || code === 0xd) return true;
  if (code >= 0x20 && code <= 0xd7ff) return true;
  return (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/** Checks that `bytes` are UTF-8 and a well-formed XML 1.0 document. */
export function checkXml(bytes: Buffer): XmlVerdict {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: 'not valid UTF-8', line: 1, column: 1 };
  }
  try {
    new Parser(text).document();
    return { ok: true };
  } catch (error) {
    if (!(error instanceof XmlError)) throw error;
    const before = text.slice(0, error.at).split('\n');
    const column = (before[before.length - 1]?.length ?? 0) + 1;
    return { ok: false, error: error.message, line: before.length, column };
  }
}

class Parser {
  #at = 0;
  constructor(readonly text: string) {}

  document(): void {
    const t = this.text;
    for (let i = 0; i < t.length; i++) {
      const code = t.codePointAt(i) ?? 0;
      if (!isXmlChar(code)) {
        throw new XmlError(`character U+${code.toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML`, i);
      }
      if (code > 0xffff) i++;
    }
    if (t.startsWith('\uFEFF')) this.#at = 1;
    if (t.startsWith('<?xml', this.#at) && /\s/.test(t[this.#at + 5] ?? '')) this.#pi();
    this.#misc();
    if (t[this.#at] !== '<') throw new XmlError('no root element', this.#at);
    this.#element();
    this.#misc();
    if (this.#at < t.length) throw new XmlError('content after the root element', this.#at);
  }

  /** Comments, processing instructions and white space. */
  #misc(): void {
    const t = this.text;
    for (;;) {
      while (/[ \t\r\n]/.test(t[this.#at] ?? '')) this.#at++;
      if (t.startsWith('<!--', this.#at)) this.#comment();
      else if (t.startsWith('<?', this.#at)) this.#pi();
      else if (t.startsWith('<!DOCTYPE', this.#at)) throw new XmlError('a DOCTYPE (this check knows no DTD)', this.#at);
      else return;
    }
  }

  /** One element and everything in it, with an explicit stack of open tags. */
  #element(): void {
    const t = this.text;
    const open: string[] = [];
    do {
      if (t.startsWith('</', this.#at)) {
        const at = this.#at;
        this.#at += 2;
        const name = this.#name();
        this.#space(false);
        this.#expect('>');
        const expected = open.pop();
        if (name !== expected) throw new XmlError(`</${name}> closes <${expected}>`, at);
      } else if (t.startsWith('<!--', this.#at)) this.#comment();
      else if (t.startsWith('<![CDATA[', this.#at)) {
        const end = t.indexOf(']]>', this.#at + 9);
        if (end < 0) throw new XmlError('a CDATA section that never ends', this.#at);
        this.#at = end + 3;
      } else if (t.startsWith('<?', this.#at)) this.#pi();
      else if (t[this.#at] === '<') {
        this.#at++;
        const name = this.#name();
        this.#attributes();
        if (t.startsWith('/>', this.#at)) this.#at += 2;
        else {
          this.#expect('>');
          open.push(name);
        }
      } else this.#charData();
      if (open.length > 0 && this.#at >= t.length) {
        throw new XmlError(`<${open[open.length - 1]}> is never closed`, this.#at);
      }
    } while (open.length > 0);
  }

  #attributes(): void {
    const t = this.text;
    const seen = new Set<string>();
    for (;;) {
      const spaced = this.#space(false);
      if (t[this.#at] === '>' || t.startsWith('/>', this.#at)) return;
      if (!spaced) throw new XmlError('attributes must be separated by white space', this.#at);
      const at = this.#at;
      const name = this.#name();
      if (seen.has(name)) throw new XmlError(`attribute ${name} given twice`, at);
      seen.add(name);
      this.#space(false);
      this.#expect('=');
      this.#space(false);
      const quote = t[this.#at];
      if (quote !== '"' && quote !== "'") throw new XmlError('an attribute value must be quoted', this.#at);
      this.#at++;
      while (t[this.#at] !== quote) {
        const c = t[this.#at];
        if (c === undefined) throw new XmlError('an attribute value that never ends', at);
        if (c === '<') throw new XmlError('< in an attribute value', this.#at);
        if (c === '&') this.#reference();
        else this.#at++;
      }
      this.#at++;
    }
  }

  #charData(): void {
    const t = this.text;
    while (this.#at < t.length && t[this.#at] !== '<') {
      if (t[this.#at] === '&') this.#reference();
      else if (t.startsWith(']]>', this.#at)) throw new XmlError(']]> in text', this.#at);
      else this.#at++;
    }
  }

  #reference(): void {
    const t = this.text;
    const at = this.#at;
    const m = /&(?:#([0-9]+)|#x([0-9a-fA-F]+)|([^\s;&<]+));/y;
    m.lastIndex = at;
    const found = m.exec(t);
    if (!found) throw new XmlError('& that starts no reference', at);
    if (found[3] !== undefined && !predefined.has(found[3])) throw new XmlError(`&${found[3]}; is not declared`, at);
    if (found[3] === undefined) {
      const code = found[1] !== undefined ? Number(found[1]) : parseInt(found[2] ?? '', 16);
      if (!isXmlChar(code)) throw new XmlError(`${found[0]} refers to a character XML does not allow`, at);
    }
    this.#at += found[0].length;
  }

  #comment(): void {
    const t = this.text;
    const end = t.indexOf('--', this.#at + 4);
    if (end < 0) throw new XmlError('a comment that never ends', this.#at);
    if (t[end + 2] !== '>') throw new XmlError('-- inside a comment', end);
    this.#at = end + 3;
  }

  #pi(): void {
    const t = this.text;
    const at = this.#at;
    this.#at += 2;
    const target = this.#name();
    const atStart = at === 0 || (at === 1 && t.startsWith('\uFEFF'));
    if (target.toLowerCase() === 'xml' && !atStart) throw new XmlError('an XML declaration not at the start', at);
    const end = t.indexOf('?>', this.#at);
    if (end < 0) throw new XmlError('a processing instruction that never ends', at);
    this.#at = end + 2;
  }

  #name(): string {
    nameRe.lastIndex = this.#at;
    const found = nameRe.exec(this.text);
    if (!found) throw new XmlError('a name was expected', this.#at);
    this.#at += found[0].length;
    return found[0];
  }

  #space(required: boolean): boolean {
    const start = this.#at;
    while (/[ \t\r\n]/.test(this.text[this.#at] ?? '')) this.#at++;
    if (required && this.#at === start) throw new XmlError('white space was expected', this.#at);
    return this.#at > start;
  }

  #expect(s: string): void {
    if (!this.text.startsWith(s, this.#at)) throw new XmlError(`${s} was expected`, this.#at);
    this.#at += s.length;
  }
}
