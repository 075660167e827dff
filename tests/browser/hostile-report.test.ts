/**
 * The report of a run against the hostile target (tests/hostile/hostile-target.ts) in a real
 * browser: report.html, opened from disk with every filter, the search and every `<details>` used,
 * runs none of the target's script (no dialog, no global set) and requests nothing but itself (the
 * canary the target's URLs name gets nothing); Chromium's own XML parser takes junit.xml. A control
 * page first shows that this harness does see a script, a dialog and a canary request when they happen.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pwnedGlobal } from '../hostile/hostile-payloads.ts';
import { runAgainstHostile, type HostileRun } from '../hostile/run-against-hostile.ts';
import { launchChromium, newGuardedPage, type ChromiumSession } from './chromium.ts';

const boundMs = 60_000;
/** The path the control page asks the canary for; every other canary request comes from a report. */
const controlPath = '/harness-control.png';

interface Watched {
  readonly page: Page;
  readonly dialogs: string[];
  readonly requests: string[];
  readonly blocked: readonly string[];
}

describe('report.html of a run against a hostile target, in Chromium', () => {
  let run: HostileRun;
  let session: ChromiumSession | undefined;

  beforeAll(async () => {
    run = await runAgainstHostile({ boundMs });
    session = await launchChromium();
  }, boundMs + 60_000);

  afterAll(async () => {
    await session?.close();
    await run?.cleanup();
  });

  /** A page whose dialogs (dismissed) and requests are recorded. */
  async function watchedPage(): Promise<Watched> {
    if (!session) throw new Error('Chromium did not start');
    const guarded = await newGuardedPage(session);
    const dialogs: string[] = [];
    const requests: string[] = [];
    guarded.page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => undefined);
    });
    guarded.page.on('request', (request) => requests.push(request.url()));
    return { page: guarded.page, dialogs, requests, blocked: guarded.blocked };
  }

  const fromReports = () => run.canary.requests().filter((r) => !r.includes(controlPath));

  it('sees a script, a dialog and a canary request when a page has them (control)', async () => {
    const control = join(run.dir, 'control.html');
    const script = `<script>window.${pwnedGlobal}=1;alert('control')</script>`;
    await writeFile(control, `<!doctype html>${script}<img src="${run.canary.origin}${controlPath}">`);
    const { page, dialogs } = await watchedPage();
    await page.goto(pathToFileURL(control).href, { waitUntil: 'load' });
    expect(dialogs).toEqual(['alert: control']);
    expect(await page.evaluate(`window.${pwnedGlobal}`)).toBe(1);
    expect(run.canary.requests().filter((r) => r.includes(controlPath))).toHaveLength(1);
    await page.close();
  });

  it('runs none of the target’s script and requests nothing but itself, with every control used', async () => {
    const html = join(run.dir, 'latest', 'report.html');
    const url = pathToFileURL(html).href;
    const { page, dialogs, requests, blocked } = await watchedPage();
    const canaryBefore = run.canary.requests().length;
    await page.goto(url, { waitUntil: 'load' });
    // The target's script reached the page, as text: what follows is not judged on an empty page.
    expect(await page.locator('body').innerText()).toContain(`window.${pwnedGlobal}=1`);
    for (const filter of await page.locator('[data-filter]').all()) {
      if (!(await filter.isVisible())) continue;
      await filter.click();
      await filter.click();
    }
    if ((await page.locator('#q').count()) > 0) await page.locator('#q').fill('pwned');
    await page.evaluate("document.querySelectorAll('details').forEach(function (d) { d.open = true; })");
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(`typeof window.${pwnedGlobal}`), 'an injected script set the global').toBe('undefined');
    expect(dialogs).toEqual([]);
    expect(requests.filter((r) => r !== url && !/^(data|about|blob):/.test(r))).toEqual([]);
    expect(blocked).toEqual([]);
    expect(run.canary.requests().slice(canaryBefore)).toEqual([]);
    await page.close();
  });

  it('takes junit.xml in Chromium’s XML parser', async () => {
    const { page } = await watchedPage();
    const xml = (await run.read('junit.xml'))?.toString('utf8');
    expect(xml, 'junit.xml was not written').toBeDefined();
    await page.goto('about:blank');
    // As an expression: these tests compile without the DOM's types.
    const errors = await page.evaluate(
      `Array.from(new DOMParser().parseFromString(${JSON.stringify(xml ?? '')}, 'application/xml')` +
        `.getElementsByTagName('parsererror'))` +
        `.map(function (e) { return (e.textContent || '').slice(0, 300); })`,
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('left the canary alone through the run and the browsing (the control page aside)', () => {
    expect(fromReports()).toEqual([]);
  });
});
