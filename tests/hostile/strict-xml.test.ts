/**
 * The strict XML check the hostile-target test judges junit.xml with: it takes well-formed
 * documents and refuses each way a target's text could break one.
 */
import { describe, expect, it } from 'vitest';
import { checkXml } from './strict-xml.ts';

const check = (text: string) => checkXml(Buffer.from(text, 'utf8'));

describe('checkXml', () => {
  it.each([
    [
      'a declaration, attributes, text, references and CDATA',
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<a x="1" y=\'&lt;&#65;&#x42;\'><b>t &amp; &quot;u&quot;</b><![CDATA[<x> ]] ]>]]><c/></a>\n',
    ],
    ['comments and instructions around the root', '<!-- before --><?pi data?><a><!-- in --></a><!-- after -->'],
    ['a self-closing root', '<a/>'],
    ['nesting 100,000 deep (no recursion)', `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`],
  ])('takes %s', (_what, text) => {
    expect(check(text)).toEqual({ ok: true });
  });

  it.each([
    ['NUL in text', '<a>\u0000</a>', /U\+0000/],
    ['ESC in text', '<a>\u001b[2J</a>', /U\+001B/],
    ['BEL in an attribute', '<a x="\u0007"/>', /U\+0007/],
    ['U+FFFE', '<a>\ufffe</a>', /U\+FFFE/],
    [']]> in text', '<a>x]]>y</a>', /]]> in text/],
    ['a CDATA section ended early by target text', '<a><![CDATA[x]]>]]></a>', /]]> in text/],
    ['&#0;', '<a>&#0;</a>', /refers to a character/],
    ['&#x1b;', '<a x="&#x1b;"/>', /refers to a character/],
    ['an undeclared entity', '<a>&bogus;</a>', /not declared/],
    ['a bare &', '<a>a & b</a>', /starts no reference/],
    ['< in an attribute value', '<a x="<"/>', /< in an attribute/],
    ['a quote that ends an attribute early', '<a x="a"b"/>', /white space|expected/],
    ['a closing tag from target text', '<testsuite><testcase></testcase></testsuite></testcase>', /after the root/],
    ['mismatched tags', '<a><b></a>', /closes/],
    ['an element never closed', '<a><b></b>', /never closed/],
    ['two roots', '<a/><b/>', /after the root/],
    ['-- in a comment', '<a><!-- x -- y --></a>', /-- inside a comment/],
    ['a DOCTYPE', '<!DOCTYPE a><a/>', /DOCTYPE/],
    ['an attribute given twice', '<a x="1" x="2"/>', /twice/],
  ])('refuses %s', (_what, text, error) => {
    const verdict = check(text);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.error).toMatch(error);
  });

  it('refuses bytes that are not UTF-8', () => {
    const lone9b = Buffer.from([0x3c, 0x61, 0x3e, 0x9b, 0x3c, 0x2f, 0x61, 0x3e]);
    expect(checkXml(lone9b)).toMatchObject({ ok: false, error: 'not valid UTF-8' });
  });

  it('says where the first error is', () => {
    expect(check('<a>\n  <b>&bogus;</b>\n</a>')).toMatchObject({ ok: false, line: 2, column: 6 });
  });
});
