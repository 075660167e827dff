/**
 * `npm run docs`: builds reports/docs/index.html (the API reference, from openapi.yaml by `redocly
 * build-docs` with Redoc's scripts inlined, linking to the other pages), catalogue.html (the requirement
 * catalogue, by render-catalogue.ts), flows.html and a flow-<id>.html per Arazzo flow (with its sequence
 * diagram as inline SVG), and samples.html (curl and TypeScript per operation). Every page must open with
 * no network: the build fails if one references an http(s) script, stylesheet, font or image.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolkitError } from '../shared/toolkit-errors.ts';
import { requirement, requirementIds } from '../contract/requirements.ts';
import { paths } from '../contract/paths.ts';
import { readFlows } from './flows/read-flows.ts';
import { flowFile, renderFlowPage, renderFlowsIndex } from './flows/render-flows.ts';
import { renderCatalogueHtml } from './render-catalogue.ts';
import { operationSamples } from './samples/operation-samples.ts';
import { renderSamplesPage } from './samples/render-samples.ts';
import { openapi } from '../contract/openapi.ts';

/** Where the docs land (reports/docs/ under the current directory), and what the two pages are called. */
export const docsPaths = Object.freeze({
  dir: join(process.cwd(), 'reports', 'docs'),
  index: join(process.cwd(), 'reports', 'docs', 'index.html'),
  catalogue: join(process.cwd(), 'reports', 'docs', 'catalogue.html'),
  flows: join(process.cwd(), 'reports', 'docs', 'flows.html'),
  samples: join(process.cwd(), 'reports', 'docs', 'samples.html'),
});

/** The link text both the page and the browser test look for. */
export const catalogueLinkText = 'Requirement catalogue →';
export const apiLinkText = '← API reference';
export const flowsLinkText = 'Flows →';
export const samplesLinkText = 'Code samples →';

/** Builds every page; returns the paths of the main ones. Throws ToolkitError BUILD_FAILED on any failure. */
export async function buildDocs(): Promise<{ index: string; catalogue: string; flows: string; samples: string }> {
  await mkdir(docsPaths.dir, { recursive: true });

  const redoc = withoutCdnLogos(await renderApiReference());
  const nav = linkBar([
    ['catalogue.html', catalogueLinkText],
    ['flows.html', flowsLinkText],
    ['samples.html', samplesLinkText],
  ]);
  const index = injectAfterBody(redoc, nav, 'index.html');
  assertOffline(index, 'index.html');
  await writeFile(docsPaths.index, index);

  const rendered = renderCatalogueHtml(requirementIds.map(requirement));
  const catalogue = rendered.includes('href="index.html"')
    ? rendered
    : injectAfterBody(rendered, linkBar([['index.html', apiLinkText]]), 'catalogue.html');
  assertOffline(catalogue, 'catalogue.html');
  await writeFile(docsPaths.catalogue, catalogue);

  await writeFlowAndSamplePages();
  return { index: docsPaths.index, catalogue: docsPaths.catalogue, flows: docsPaths.flows, samples: docsPaths.samples };
}

/** flows.html, a page per Arazzo flow, and samples.html, each checked to need no network. */
async function writeFlowAndSamplePages(): Promise<void> {
  let flows: ReturnType<typeof readFlows>;
  try {
    flows = readFlows();
  } catch (error) {
    throw new ToolkitError('BUILD_FAILED', `cannot read the Arazzo flows: ${(error as Error).message}`);
  }
  const pages: Array<[string, string]> = [
    ['flows.html', renderFlowsIndex(flows)],
    ...flows.map((f): [string, string] => [flowFile(f.id), renderFlowPage(f)]),
    ['samples.html', renderSamplesPage(operationSamples(openapi))],
  ];
  for (const [name, html] of pages) {
    assertOffline(html, name);
    await writeFile(join(docsPaths.dir, name), html);
  }
}

/**
 * Redoc's page for openapi.yaml, with its scripts inlined. Redocly writes it to a scratch file,
 * so that index.html is only ever a page that passed the checks.
 */
async function renderApiReference(): Promise<string> {
  const scratch = join(docsPaths.dir, '.redoc-build.html');
  try {
    await redocly([
      'build-docs',
      paths.openapi,
      '--inlineBundle',
      '--output',
      scratch,
      '--config',
      join(paths.root, 'redocly.yaml'),
    ]);
    return await readFile(scratch, 'utf8');
  } finally {
    await rm(scratch, { force: true }).catch(() => undefined);
  }
}

/**
 * Runs the local Redocly CLI. Telemetry and the update check are off: the build talks to no one.
 * Redocly's chatter (stderr) is shown only when it fails.
 */
function redocly(args: readonly string[]): Promise<void> {
  // Wherever npm put it: the repository's node_modules, or hoisted beside an installed package.
  const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: paths.root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', (error) => reject(new ToolkitError('BUILD_FAILED', `cannot run redocly: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const last =
        output
          .trim()
          .split('\n')
          .filter((line) => line.trim() !== '')
          .at(-1) ?? 'no output';
      reject(new ToolkitError('BUILD_FAILED', `redocly ${args[0]} exited with ${code}: ${last.trim()}`));
    });
  });
}

/**
 * Redoc's "API docs by Redocly" footer fetches its logo from Redocly's CDN at run time (an
 * `<img>` made by script, even with `--inlineBundle`). Swap it for an inline SVG wordmark.
 */
function withoutCdnLogos(page: string): string {
  const wordmark = (width: number, text: string): string =>
    `data:image/svg+xml,${encodeURIComponent(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="14" viewBox="0 0 ${width} 14">` +
        `<text x="0" y="11" font-family="system-ui,sans-serif" font-size="11" font-weight="600" fill="#5b6b79">${text}</text></svg>`,
    )}`;
  return page
    .replaceAll('https://cdn.redoc.ly/redoc/logo-mini-full.svg', wordmark(48, 'Redocly'))
    .replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', wordmark(12, 'R'));
}

/** A small bar of links, styled inline so that it needs no stylesheet. */
function linkBar(links: ReadonlyArray<readonly [href: string, text: string]>): string {
  const anchors = links.map(
    ([href, text]) =>
      `<a href="${href}" style="color:#0b5cad;font-weight:600;text-decoration:none;margin-right:20px">${text}</a>`,
  );
  return [
    '<nav class="tryon-docs-nav" style="padding:10px 24px;border-bottom:1px solid #d0d7de;',
    'background:#f6f8fa;font:15px/1.4 system-ui,sans-serif">',
    ...anchors,
    '</nav>',
  ].join('');
}

/**
 * Puts `html` right after `<body …>`. In index.html that is outside Redoc's root element, so
 * React's hydration leaves it alone.
 */
function injectAfterBody(page: string, html: string, name: string): string {
  const body = /<body[^>]*>/i.exec(page);
  if (!body) throw new ToolkitError('BUILD_FAILED', `${name} has no <body> to put the docs navigation in`);
  const at = body.index + body[0].length;
  return `${page.slice(0, at)}\n${html}${page.slice(at)}`;
}

/**
 * The http(s) resources a page would load: script/img/iframe `src`, stylesheet/font/icon
 * `<link href>`, and CSS `url(...)`/`@import`. Plain links (`<a href>`) and URLs that only
 * appear as text (examples, server URLs) are not loads.
 */
export function externalResources(page: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /<(?:script|img|iframe|source|audio|video|embed)\b[^>]*?\ssrc\s*=\s*["']?(https?:\/\/[^"'\s>]+)/gi,
    /<link\b[^>]*?\shref\s*=\s*["']?(https?:\/\/[^"'\s>]+)/gi,
    /url\(\s*["']?(https?:\/\/[^"')\s]+)/gi,
    /@import\s+(?:url\()?\s*["'](https?:\/\/[^"']+)/gi,
  ];
  for (const pattern of patterns) {
    for (const match of page.matchAll(pattern)) if (match[1]) found.add(match[1]);
  }
  return [...found];
}

/** Hosts Redoc loads from at run time (from script, so the patterns above cannot see it). */
const runtimeCdns = ['https://cdn.redoc.ly/'];

function assertOffline(page: string, name: string): void {
  const external = [...externalResources(page), ...runtimeCdns.filter((cdn) => page.includes(cdn))];
  if (external.length > 0) {
    throw new ToolkitError('BUILD_FAILED', `${name} would load from the network: ${external.join(', ')}`);
  }
}

async function main(): Promise<void> {
  try {
    const built = await buildDocs();
    process.stdout.write(`docs: API reference     ${relative(process.cwd(), built.index)}\n`);
    process.stdout.write(`docs: requirement list  ${relative(process.cwd(), built.catalogue)}\n`);
    process.stdout.write(`docs: flows             ${relative(process.cwd(), built.flows)}\n`);
    process.stdout.write(`docs: code samples      ${relative(process.cwd(), built.samples)}\n`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`docs: build failed: ${message.split('\n')[0]}\n`);
    process.exitCode = error instanceof ToolkitError ? error.exitCode : 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
