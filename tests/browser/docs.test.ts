/**
 * The docs site in a real browser: reports/docs/index.html (Redoc, from openapi.yaml) and
 * catalogue.html (the requirement catalogue), opened from disk with every off-machine request
 * aborted and recorded. Build them first with `npm run docs` (`npm run test:browser` does).
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueLinkText, docsPaths } from '../../src/docs/build-docs.ts';
import { isObject, listOperations, openapi } from '../../src/contract/openapi.ts';
import { paths } from '../../src/contract/paths.ts';
import { requirementIds } from '../../src/contract/requirements.ts';
import { launchChromium, newGuardedPage, type ChromiumSession, type GuardedPage } from './chromium.ts';

const indexUrl = pathToFileURL(docsPaths.index).href;
const screenshots = {
  index: `${docsPaths.dir}/screenshot.png`,
  catalogue: `${docsPaths.dir}/catalogue.png`,
};

/** `components.schemas.ErrorCode.enum` of openapi.yaml. */
function errorCodes(): string[] {
  const schemas =
    isObject(openapi.components) && isObject(openapi.components.schemas) ? openapi.components.schemas : {};
  const errorCode = schemas.ErrorCode;
  const codes = isObject(errorCode) && Array.isArray(errorCode.enum) ? errorCode.enum : [];
  return codes.filter((code): code is string => typeof code === 'string');
}

describe('docs site (reports/docs)', () => {
  let session: ChromiumSession | undefined;
  let guarded: GuardedPage;
  /** The visible text of every docs route the tests visited. */
  const seen: string[] = [];

  beforeAll(async () => {
    for (const file of [docsPaths.index, docsPaths.catalogue]) {
      if (!existsSync(file)) throw new Error(`${relative(paths.root, file)} is missing: run \`npm run docs\` first`);
    }
    session = await launchChromium();
    guarded = await newGuardedPage(session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('opens the API reference with the catalogue link on top, and saves a screenshot', async () => {
    const { page } = guarded;
    await page.goto(indexUrl, { waitUntil: 'load' });
    const title = isObject(openapi.info) && typeof openapi.info.title === 'string' ? openapi.info.title : 'API';
    await page.locator('#redoc h1').filter({ hasText: title }).first().waitFor();
    const link = page.getByRole('link', { name: catalogueLinkText });
    expect(await link.isVisible()).toBe(true);
    expect(await link.getAttribute('href')).toBe('catalogue.html');
    seen.push(await page.locator('body').innerText());
    await page.screenshot({ path: screenshots.index, fullPage: true });
  });

  it('has a page for every operation of openapi.yaml, reached from the sidebar by operationId', async () => {
    const { page } = guarded;
    const operations = listOperations();
    expect(operations.length).toBeGreaterThanOrEqual(5);
    for (const op of operations) {
      const summary = typeof op.node.summary === 'string' ? op.node.summary : op.operationId;
      const tag = Array.isArray(op.node.tags) && typeof op.node.tags[0] === 'string' ? op.node.tags[0] : undefined;
      // Redoc routes an operation as #/<tag>/<operationId in lower case>.
      const slug = `/${op.operationId.toLowerCase()}`;
      const link = page.locator(`a[href$="${slug}"]`).filter({ visible: true }).first();
      if (!(await link.isVisible()) && tag !== undefined) {
        await page.getByRole('link', { name: tag, exact: true }).first().click();
      }
      await link.click();
      await page.waitForURL((url) => url.hash.endsWith(slug));
      const route = new URL(page.url()).hash.replace(/^#\//, '');
      const section = page.locator(`[id="${route}"]`);
      await section.waitFor();
      expect(await section.innerText(), `${op.operationId} (${op.method.toUpperCase()} ${op.path})`).toContain(summary);
      seen.push(await page.locator('body').innerText());
    }
  });

  it('shows every code of components.schemas.ErrorCode', () => {
    const codes = errorCodes();
    expect(codes.length).toBeGreaterThan(0);
    const text = seen.join('\n');
    expect(codes.filter((code) => !text.includes(code))).toEqual([]);
  });

  it('links to catalogue.html, which lists every requirement ID and links back', async () => {
    const { page } = guarded;
    await page.goto(indexUrl, { waitUntil: 'load' });
    await page.getByRole('link', { name: catalogueLinkText }).click();
    await page.waitForURL(/\/catalogue\.html$/);
    const text = await page.locator('body').innerText();
    expect(requirementIds.length).toBeGreaterThan(0);
    expect(requirementIds.filter((id) => !text.includes(id))).toEqual([]);
    await page.screenshot({ path: screenshots.catalogue, fullPage: true });
    await page.locator('a[href="index.html"]').first().click();
    await page.waitForURL(/\/index\.html/);
  });

  it('tried to load nothing from off this machine', () => {
    expect(guarded.blocked).toEqual([]);
  });

  // Without this, an empty `blocked` list could mean a net that records nothing.
  it('has a safety net that aborts and records an off-machine request', async () => {
    if (!session) throw new Error('no browser session');
    const probe = await newGuardedPage(session);
    await probe.page.goto(indexUrl, { waitUntil: 'load' });
    const outcome = await probe.page.evaluate(() =>
      fetch('https://tryon-docs-probe.invalid/x.png').then(
        () => 'loaded',
        () => 'failed',
      ),
    );
    expect(outcome).toBe('failed');
    expect(probe.blocked).toEqual(['https://tryon-docs-probe.invalid/x.png']);
    await probe.page.close();
  });
});
