/**
 * The shell of the generated docs pages (flows, samples): escaping, inline code, and one page with
 * the site's navigation and a small inline stylesheet, so a page needs nothing from the network.
 */

/** Text for HTML (element content and quoted attribute values). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Escaped text with `backticked` spans as <code>, paragraphs on blank lines. */
export function proseHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((para) => `<p>${escapeHtml(para.replace(/\s*\n\s*/g, ' ')).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`)
    .join('\n');
}

/** The site's pages, for the navigation bar. */
export const sitePages = [
  { href: 'index.html', text: 'API reference' },
  { href: 'catalogue.html', text: 'Requirement catalogue' },
  { href: 'flows.html', text: 'Flows' },
  { href: 'samples.html', text: 'Code samples' },
] as const;

const style = `
body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1f2328;background:#fff}
nav.tryon-docs-nav{padding:10px 24px;border-bottom:1px solid #d0d7de;background:#f6f8fa}
nav.tryon-docs-nav a{color:#0b5cad;font-weight:600;text-decoration:none;margin-right:18px}
main{max-width:980px;margin:0 auto;padding:8px 24px 48px}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:12px;overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:12px 0}
th,td{border:1px solid #d0d7de;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
figure{margin:16px 0;overflow-x:auto}
h2{margin-top:32px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.lang{font-size:12px;font-weight:600;color:#57606a;text-transform:uppercase;margin:10px 0 2px}
`;

/** A whole page: title, navigation (with `prefix` before each href for pages in a subfolder), body. */
export function page(title: string, body: string, prefix = ''): string {
  const nav = sitePages.map((p) => `<a href="${prefix}${p.href}">${escapeHtml(p.text)}</a>`).join('');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${style}</style></head>`,
    `<body><nav class="tryon-docs-nav">${nav}</nav>`,
    `<main>${body}</main></body></html>`,
  ].join('\n');
}
