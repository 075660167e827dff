import { describe, expect, it } from 'vitest';
import { fakeReport } from './fake-run.ts';
import type { Report } from './model.ts';
import { renderJunit } from './write-junit.ts';

interface XmlElement {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

/**
 * A small well-formedness check for the XML we write (declaration, elements, attributes, text,
 * CDATA, character and the five predefined entity references); throws where a parser would.
 */
function parseXml(xml: string): XmlElement {
  const entity = (ref: string): string => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const char = named[ref];
    if (char === undefined) throw new Error(`unknown entity &${ref};`);
    return char;
  };
  const decode = (raw: string): string => {
    if (raw.includes('<')) throw new Error(`raw < in ${JSON.stringify(raw.slice(0, 40))}`);
    return raw.replace(/&([^;\s]*);?/g, (m, ref: string) => {
      if (!m.endsWith(';')) throw new Error(`bare & in ${JSON.stringify(raw.slice(0, 40))}`);
      return entity(ref);
    });
  };
  let i = 0;
  if (xml.startsWith('<?xml')) i = xml.indexOf('?>') + 2;
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  while (i < xml.length) {
    const top = stack.at(-1)!;
    if (xml.startsWith('<![CDATA[', i)) {
      const end = xml.indexOf(']]>', i);
      if (end < 0) throw new Error('unterminated CDATA');
      top.text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith('</', i)) {
      const end = xml.indexOf('>', i);
      const name = xml.slice(i + 2, end).trim();
      if (stack.length < 2 || top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      i = end + 1;
    } else if (xml[i] === '<') {
      const m = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"]*")*)\s*(\/?)>/.exec(xml.slice(i));
      if (!m) throw new Error(`bad tag at ${i}: ${xml.slice(i, i + 60)}`);
      const attrs: Record<string, string> = {};
      for (const a of (m[2] ?? '').matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
        if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]}`);
        attrs[a[1]!] = decode(a[2]!);
      }
      const element: XmlElement = { name: m[1]!, attrs, children: [], text: '' };
      top.children.push(element);
      if (m[3] !== '/') stack.push(element);
      i += m[0].length;
    } else {
      const end = xml.indexOf('<', i);
      const raw = xml.slice(i, end < 0 ? xml.length : end);
      if (stack.length === 1 && raw.trim() !== '') throw new Error('text outside the root element');
      top.text += decode(raw);
      i += raw.length;
    }
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1)!.name}> is never closed`);
  if (root.children.length !== 1) throw new Error('not exactly one root element');
  return root.children[0]!;
}

function all(e: XmlElement, name: string): XmlElement[] {
  return [...(e.name === name ? [e] : []), ...e.children.flatMap((c) => all(c, name))];
}

describe('junit.xml', () => {
  it('is well-formed, with one <testcase> per requirement, classname = section', () => {
    const report = fakeReport();
    const root = parseXml(renderJunit(report));
    expect(root.name).toBe('testsuites');
    const cases = all(root, 'testcase');
    expect(cases.map((c) => c.attrs.name)).toEqual(expect.arrayContaining(report.requirements.map((r) => r.id)));
    expect(cases).toHaveLength(report.requirements.length);
    for (const c of cases)
      expect(c.attrs.classname).toBe(report.requirements.find((r) => r.id === c.attrs.name)?.section);
    expect(root.attrs).toMatchObject({ tests: '23', failures: '6', skipped: '8', errors: '0' });
  });

  it('gives an inconclusive requirement <skipped> with the reason, never a <failure>, and puts the target’s choices in the <system-out> of their requirement', () => {
    const cases = all(parseXml(renderJunit(fakeReport())), 'testcase');
    const byId = (id: string): XmlElement => cases.find((c) => c.attrs.name === id)!;
    const pending = byId('CREATE-RESPONSE-STATUS-PENDING');
    expect(all(pending, 'failure')).toEqual([]);
    expect(all(pending, 'skipped')[0]?.attrs.message).toBe(
      'inconclusive: the test stopped when CREATE-ACCEPTED-IS-200 failed',
    );
    expect(all(byId('ERR-TITLE-TOO-LONG-IMPL-DEFINED'), 'system-out')[0]?.text).toContain(
      'Implementation-defined points (what this target chose; never judged):\n  - title-length: counted in UTF-16 code units',
    );
  });

  it('gives failing requirements a <failure> with the message and the evidence, and the others <skipped> with the reason', () => {
    const cases = all(parseXml(renderJunit(fakeReport())), 'testcase');
    const byId = (id: string): XmlElement => cases.find((c) => c.attrs.name === id)!;
    const failure = all(byId('CREATE-TITLE-OPTIONAL-UP-TO-120'), 'failure')[0];
    expect(failure?.attrs.message).toBe(
      'MUST: Undocumented status code: received 500; documented 200, 400, 401, 402, 409, 415, 422, 429, 500, 503',
    );
    expect(failure?.text).toContain('Expected: 200, 400, 401');
    expect(failure?.text).toContain('Received: 500');
    expect(failure?.text).toContain('curl -sS -i -X POST -H "authorization: Bearer $TRYON_API_KEY"');
    expect(failure?.text).toContain('Replay: npx tryon-conformance run');
    expect(all(byId('AUTH-REVOKED-KEY-401'), 'skipped')[0]?.attrs.message).toMatch(/^skip: needs revoked-key/);
    expect(all(byId('SVC-TYPICAL-CLIENT-FLOW'), 'skipped')[0]?.attrs.message).toMatch(
      /^not observable: client guidance/,
    );
    expect(all(byId('AUTH-BEARER-REQUIRED'), 'failure')).toEqual([]);
    expect(all(byId('AUTH-BEARER-REQUIRED'), 'skipped')).toEqual([]);
  });

  it('escapes markup, keeps "]]>" and line breaks intact, and drops characters XML cannot hold', () => {
    const base = fakeReport();
    const nasty = 'a <b> & "c" \'d\' ]]> e\u0000f\u001bg\nnext line';
    const report: Report = {
      ...base,
      requirements: base.requirements.map((r) =>
        r.verdict === 'fail'
          ? {
              ...r,
              statement: nasty,
              failures: r.failures.map((f) => ({
                ...f,
                message: nasty,
                evidence: [{ curl: nasty, status: 500, body: nasty }],
              })),
            }
          : r,
      ),
    };
    const root = parseXml(renderJunit(report));
    const failure = all(root, 'failure')[0]!;
    expect(failure.attrs.message).toBe(
      `${base.requirements.find((r) => r.verdict === 'fail')?.level}: a <b> & "c" 'd' ]]> e\uFFFDf\uFFFDg`,
    );
    expect(failure.text).toContain('a <b> & "c" \'d\' ]]> e\uFFFDf\uFFFDg\nnext line');
  });

  it('reports run errors as <error> test cases', () => {
    const root = parseXml(
      renderJunit({ ...fakeReport(), errors: [{ file: 'src/suite/x.suite.ts', message: 'SyntaxError: <oops>' }] }),
    );
    expect(all(root, 'error')[0]?.attrs.message).toBe('SyntaxError: <oops>');
    expect(root.attrs.errors).toBe('1');
  });
});
