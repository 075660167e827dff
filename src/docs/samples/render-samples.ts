/** samples.html: a curl and a TypeScript sample for every operation, anchored by operationId. */
import { escapeHtml, page } from '../site/html-page.ts';
import type { OperationSamples } from './operation-samples.ts';

export function renderSamplesPage(samples: readonly OperationSamples[]): string {
  const sections = samples.map((s) =>
    [
      `<section id="${escapeHtml(s.operationId)}">`,
      `<h2>${escapeHtml(s.summary)}: <code>${escapeHtml(`${s.method} ${s.path}`)}</code></h2>`,
      '<div class="lang">curl</div>',
      `<pre><code class="language-shell">${escapeHtml(s.curl)}</code></pre>`,
      '<div class="lang">TypeScript (tryon-conformance/client)</div>',
      `<pre><code class="language-typescript">${escapeHtml(s.typescript)}</code></pre>`,
      '</section>',
    ].join('\n'),
  );
  const body = [
    '<h1>Code samples</h1>',
    "<p>Generated from openapi.yaml (servers, parameters, request examples) and the typed client's method",
    'names, so the two samples of an operation show the same values. The key is read from',
    '<code>TRYON_API_KEY</code> on your server; never put it in browser code.</p>',
    ...sections,
  ].join('\n');
  return page('Code samples — Virtual Try-On API', body);
}
