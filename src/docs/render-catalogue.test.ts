/**
 * The catalogue pages: every requirement is reachable by its ID, text is escaped, and the page
 * loads nothing from the network (spec: all nine sections, through the catalogue).
 */
import { describe, expect, it } from 'vitest';
import { allRequirements, specSections } from '../contract/requirements.ts';
import {
  catalogueTitle,
  escapeHtml,
  escapeMarkdown,
  renderCatalogueHtml,
  renderCatalogueMarkdown,
  sectionAnchor,
  type CatalogueEntry,
} from './render-catalogue.ts';

const catalogue = allRequirements();
const html = renderCatalogueHtml(catalogue);
const markdown = renderCatalogueMarkdown(catalogue);

const hostile: CatalogueEntry = {
  id: 'ERR-HOSTILE',
  level: 'MUST',
  section: 'Errors',
  statement: `<script>alert("x")</script> & 'q' | a_b *c* \`d\``,
  quote: 'Bearer <API_KEY>',
  needs: [],
};
const sample: readonly CatalogueEntry[] = [
  hostile,
  {
    id: 'ERR-OPEN',
    level: 'MAY',
    section: 'Errors',
    statement: 'Open.',
    quote: 'q',
    needs: [],
    implementationDefined: true,
    xPoint: 'title-length',
  },
  {
    id: 'ERR-CLIENT',
    level: 'SHOULD',
    section: 'Errors',
    statement: 'Client.',
    quote: 'q',
    needs: [],
    notObservable: 'about the client',
  },
  {
    id: 'LIMIT-X',
    level: 'MUST',
    section: 'Limits',
    statement: 'Limit.',
    quote: 'q',
    needs: ['second-account', 'test-control'],
  },
];

describe('renderCatalogueHtml', () => {
  it.each(catalogue.map((r) => r.id))('anchors %s so that catalogue.html#ID lands on its row', (id) => {
    expect(html.split(`<tr id="${id}">`)).toHaveLength(2);
    expect(html).toContain(`<a href="#${id}"><code>${id}</code></a>`);
  });

  it('is titled, links back to the API reference, and groups by section in spec order', () => {
    expect(html).toContain(`<title>${escapeHtml(catalogueTitle)}</title>`);
    expect(html).toContain(`<h1>${escapeHtml(catalogueTitle)}</h1>`);
    expect(html).toMatch(/<a href="index\.html">[^<]*API reference<\/a>/);
    const positions = specSections.map((s) => html.indexOf(`<section id="${sectionAnchor(s)}">`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('loads nothing: no scripts, stylesheets, images or fonts from anywhere', () => {
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?https?:/i);
    expect(html).not.toMatch(/url\(|@import/i);
  });

  it('escapes every text it prints', () => {
    const page = renderCatalogueHtml(sample);
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;');
    expect(page).toContain('“Bearer &lt;API_KEY&gt;”');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<API_KEY>');
  });

  it('counts per section and level, and says how each requirement is observed', () => {
    const page = renderCatalogueHtml(sample);
    const errorsRow =
      '<tr><th scope="row"><a href="#errors">Errors</a></th>' +
      [1, 1, 1, 3, 1, 1].map((n) => `<td class="num">${n}</td>`).join('') +
      '</tr>';
    expect(page).toContain(errorsRow);
    expect(page).toContain('<td class="num"><strong>4</strong></td>');
    expect(page).toContain('<td>plain HTTP</td>');
    expect(page).toContain('<td>second-account, test-control</td>');
    expect(page).toContain('not observable: about the client');
    expect(page).toContain('<span class="impl">implementation-defined</span>');
    expect(page.match(/class="impl"/g)).toHaveLength(1);
    expect(page).not.toContain('<section id="versioning">');
  });
});

describe('renderCatalogueMarkdown', () => {
  it.each(catalogue.map((r) => r.id))('anchors %s', (id) => {
    expect(markdown.split(`<a id="${id}"></a>\`${id}\``)).toHaveLength(2);
  });

  it('has one table row per requirement under each section heading', () => {
    for (const section of specSections) {
      const start = markdown.indexOf(`\n## ${section}\n`);
      const end = markdown.indexOf('\n## ', start + 1);
      const body = markdown.slice(start, end === -1 ? undefined : end);
      const rows = body.split('\n').filter((line) => line.startsWith('| <a id='));
      expect(rows).toHaveLength(catalogue.filter((r) => r.section === section).length);
    }
  });

  it('escapes cell breaks, HTML and inline markup', () => {
    const page = renderCatalogueMarkdown(sample);
    expect(page).toContain('&lt;script&gt;alert("x")&lt;/script&gt; &amp; \'q\' \\| a\\_b \\*c\\* \\`d\\`');
    expect(page).not.toContain('<script>');
    expect(escapeMarkdown('a\nb | c')).toBe('a b \\| c');
  });

  it('links back to the API reference and to each section', () => {
    expect(markdown).toContain('[← API reference](index.html)');
    expect(markdown).toContain('[Resources and their fields](#resources-and-their-fields)');
  });
});
