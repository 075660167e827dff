/**
 * The Markdown check the hostile-target test judges report.md and the step summary with: it finds
 * what a renderer would show live, and leaves what sits in code alone.
 */
import { describe, expect, it } from 'vitest';
import { markdownFindings } from './markdown-check.ts';

const canary = 'http://127.0.0.1:4999';
const whats = (markdown: string) => markdownFindings(markdown, [canary]).map((f) => `${f.line}: ${f.what}`);
const imageAndLink = (line: number) => [
  `${line}: an image (![) outside code`,
  `${line}: an inline link or image (]() outside code`,
];

describe('markdownFindings', () => {
  it('finds images, links, autolinks, reference definitions, raw HTML and foreign URLs in live text', () => {
    expect(whats(`a ![px](${canary}/px.png) b`)).toEqual([
      '1: an image (![) outside code',
      '1: an inline link or image (]() outside code',
      `1: a URL of ${canary} outside code (GFM links it)`,
    ]);
    expect(whats('[x](javascript:alert(1))')).toEqual(['1: an inline link or image (]() outside code']);
    expect(whats(`see <${canary}/a>`)).toEqual([
      `1: an autolink <${canary}/a> outside code`,
      `1: a URL of ${canary} outside code (GFM links it)`,
    ]);
    expect(whats('text\n[ref]: /x')).toEqual(['2: a link reference definition outside code']);
    expect(whats('a <img src=x onerror=alert(1)> b')).toEqual(['1: raw HTML <img> outside code']);
    expect(whats('<script>alert(1)</script>')).toEqual(['1: raw HTML <script> outside code']);
  });

  it('finds ESC, BEL and C1 controls anywhere, code included', () => {
    const found = whats('```\n\u001b]0;x\u0007\n```\n`\u009b2J`');
    expect(found).toEqual(['2: control character U+001B', '4: control character U+009B']);
  });

  it('leaves code spans and fenced code alone, whatever their length of backticks', () => {
    expect(whats(`\`![px](${canary}/px.png)\` and \`\` a \` ![b](c) \`\``)).toEqual([]);
    const fenced = `\`\`\`\`text\n![px](${canary}/px.png)\n\`\`\`\nstill code\n\`\`\`\`\nlive ![x](y)`;
    expect(whats(fenced)).toEqual(imageAndLink(6));
    expect(whats(`~~~\n<img src=x>\n~~~`)).toEqual([]);
  });

  it('takes backslash escapes as text, and an escaped backtick opens no code span', () => {
    expect(whats('\\!\\[px\\]\\(x\\) and \\<img src=x\\>')).toEqual([]);
    expect(whats('\\`not code ![x](y) `')).toEqual(imageAndLink(1));
  });

  it('reads a code span across the lines of a paragraph, as CommonMark does', () => {
    expect(whats('a `b\nc` ![x](y) `d`')).toEqual(imageAndLink(2));
  });

  it('splits a table row at unescaped pipes before it looks for code spans, as GFM does', () => {
    expect(whats('| `a | ![x](y) b` |')).toEqual(imageAndLink(1));
    expect(whats('| `a \\| ![x](y) b` |')).toEqual([]);
  });

  it('treats the report’s own markup as harmless', () => {
    const own = '## Title\n\n| a | b<br><sub>c</sub> |\n|:--|:--|\n\n<details><summary>x</summary>\n\n</details>';
    expect(whats(own)).toEqual([]);
  });
});
