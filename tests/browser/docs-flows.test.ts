/**
 * The flow pages and the code samples of the docs site in a real browser: flows.html, every
 * flow-<id>.html (with its sequence diagram drawn, one request arrow per step) and samples.html
 * (both samples of every operation), reached from the API reference's navigation, with no console
 * error, no failed page script and nothing loaded from off this machine. Build first: `npm run docs`.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsPaths, flowsLinkText, samplesLinkText } from '../../src/docs/build-docs.ts';
import { readFlows, type FlowStep } from '../../src/docs/flows/read-flows.ts';
import { flowFile } from '../../src/docs/flows/render-flows.ts';
import { listOperations } from '../../src/contract/openapi.ts';
import { paths } from '../../src/contract/paths.ts';
import { launchChromium, newGuardedPage, type ChromiumSession, type GuardedPage } from './chromium.ts';

const flows = readFlows();
const countSteps = (steps: readonly FlowStep[]): number =>
  steps.reduce((n, s) => n + (s.workflow ? countSteps(s.workflow.steps) : 1), 0);

describe('docs site: flows and code samples', () => {
  let session: ChromiumSession | undefined;
  let guarded: GuardedPage;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    for (const file of [docsPaths.index, docsPaths.flows, docsPaths.samples]) {
      if (!existsSync(file)) throw new Error(`${relative(paths.root, file)} is missing: run \`npm run docs\` first`);
    }
    session = await launchChromium();
    guarded = await newGuardedPage(session);
    guarded.page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${guarded.page.url()}: ${message.text()}`);
    });
    guarded.page.on('pageerror', (error) => consoleErrors.push(`${guarded.page.url()}: ${error.message}`));
  });

  afterAll(async () => {
    await session?.close();
  });

  it('reaches flows.html from the API reference, listing every flow', async () => {
    const { page } = guarded;
    await page.goto(pathToFileURL(docsPaths.index).href, { waitUntil: 'load' });
    await page.getByRole('link', { name: flowsLinkText }).click();
    await page.waitForURL(/\/flows\.html$/);
    for (const flow of flows) expect(await page.locator(`a[href="${flowFile(flow.id)}"]`).count(), flow.id).toBe(1);
  });

  it.each(flows.map((f) => [f.id, f] as const))('shows flow %s with its sequence diagram', async (_id, flow) => {
    const { page } = guarded;
    await page.goto(pathToFileURL(`${docsPaths.dir}/${flowFile(flow.id)}`).href, { waitUntil: 'load' });
    const svg = page.locator('figure svg.sequence');
    expect(await svg.isVisible()).toBe(true);
    const box = await svg.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThan(100);
    // One solid request arrow per step, nested workflows included.
    expect(await svg.locator('line[marker-end]:not([stroke-dasharray])').count()).toBe(countSteps(flow.steps));
    const text = await page.locator('main').innerText();
    for (const step of flow.steps.filter((s) => !s.workflow)) expect(text).toContain(`${step.method} ${step.path}`);
    if (flow.id === 'upload-start-poll') await page.screenshot({ path: `${docsPaths.dir}/flow.png`, fullPage: true });
  });

  it('reaches samples.html from the API reference, with curl and TypeScript for every operation', async () => {
    const { page } = guarded;
    await page.goto(pathToFileURL(docsPaths.index).href, { waitUntil: 'load' });
    await page.getByRole('link', { name: samplesLinkText }).click();
    await page.waitForURL(/\/samples\.html$/);
    for (const op of listOperations()) {
      const section = page.locator(`section[id="${op.operationId}"]`);
      expect(await section.locator('code.language-shell').innerText(), op.operationId).toMatch(/^curl /);
      expect(await section.locator('code.language-typescript').innerText(), op.operationId).toContain(
        "from 'tryon-conformance/client'",
      );
    }
  });

  it('logged no console error and threw no page error', () => {
    expect(consoleErrors).toEqual([]);
  });

  it('tried to load nothing from off this machine', () => {
    expect(guarded.blocked).toEqual([]);
  });

  // Without this, an empty `consoleErrors` could mean a listener that hears nothing.
  it('hears a console error when a page logs one', async () => {
    const before = consoleErrors.length;
    await guarded.page.evaluate(() => console.error('probe'));
    await guarded.page.waitForTimeout(50);
    expect(consoleErrors.slice(before)).toEqual([expect.stringContaining('probe')]);
    consoleErrors.splice(before);
  });
});
