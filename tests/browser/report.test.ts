/**
 * The conformance report in a real browser: report.html of the fixed fake run, written by
 * writeReport to a temporary directory and opened from disk, with every off-machine request
 * aborted and recorded. Saves reports/report-screenshot.png.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeReport } from '../../src/report/fake-run.ts';
import { writeReport } from '../../src/report/write-report.ts';
import { paths } from '../../src/contract/paths.ts';
import { launchChromium, newGuardedPage, type ChromiumSession, type GuardedPage } from './chromium.ts';

const screenshot = join(paths.root, 'reports', 'report-screenshot.png');

describe('report.html', () => {
  let session: ChromiumSession | undefined;
  let guarded: GuardedPage;
  let dir: string;
  let url: string;
  const report = fakeReport();
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tryon-report-html-'));
    const written = await writeReport(report, { root: dir });
    url = pathToFileURL(written.files.html).href;
    session = await launchChromium();
    guarded = await newGuardedPage(session);
    guarded.page.on('pageerror', (error) => pageErrors.push(error.message));
    guarded.page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await guarded.page.goto(url, { waitUntil: 'load' });
  });

  afterAll(async () => {
    await session?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the outcome, the verdict counts and the traceability matrix', async () => {
    const { page } = guarded;
    await expect(page.locator('.headline h1').innerText()).resolves.toBe('Does not conform');
    const failCard = page.locator('.card[data-filter="fail"]');
    expect(await failCard.isVisible()).toBe(true);
    expect(await failCard.locator('.num').innerText()).toBe('6');
    expect(await page.locator('.rate-num').innerText()).toBe('60%');
    expect(await page.locator('#matrix').isVisible()).toBe(true);
    expect(await page.locator('tr.row').count()).toBe(report.requirements.length);
    expect(await page.locator('.spec-section h3').allInnerTexts()).toEqual([
      'What the service does',
      'Resources and their fields',
      'States and transitions',
      'Endpoints',
      'Authentication',
      'Events',
      'Errors',
      'Limits',
      'Versioning',
    ]);
    expect(await page.locator('#req-AUTH-BEARER-REQUIRED').isVisible()).toBe(true);
  });

  it('hides passing rows when the "fail" filter is on, and shows them again when it is off', async () => {
    const { page } = guarded;
    const passing = page.locator('tr.row[data-verdict="pass"]');
    const failing = page.locator('tr.row[data-verdict="fail"]');
    await page.locator('.toolbar [data-filter="fail"]').click();
    expect(await page.locator('.toolbar [data-filter="fail"]').getAttribute('aria-pressed')).toBe('true');
    expect(await passing.filter({ visible: true }).count()).toBe(0);
    expect(await failing.filter({ visible: true }).count()).toBe(6);
    // A section with no failing requirement disappears with its rows.
    expect(await page.locator('#sec-limits').isVisible()).toBe(false);
    expect(await page.locator('#shown').innerText()).toBe('6 of 23 requirements');
    await page.locator('.toolbar [data-filter="fail"]').click();
    expect(await passing.filter({ visible: true }).count()).toBe(9);
  });

  it('filters to the inconclusive requirements with their chip, each with why it was not judged', async () => {
    const { page } = guarded;
    await page.locator('.toolbar [data-filter="inconclusive"]').click();
    const shown = page.locator('tr.row').filter({ visible: true });
    expect(await shown.count()).toBe(2);
    expect(await page.locator('#req-CREATE-RESPONSE-STATUS-PENDING .reason').innerText()).toBe(
      'the test stopped when CREATE-ACCEPTED-IS-200 failed',
    );
    await page.locator('.toolbar [data-filter="inconclusive"]').click();
    expect(await page.locator('tr.row').filter({ visible: true }).count()).toBe(report.requirements.length);
  });

  it('shows the implementation-defined points as a table of what the target did', async () => {
    const { page } = guarded;
    const rows = page.locator('#choices table.choices tbody tr');
    expect(await rows.count()).toBe(report.choices.length);
    expect(await rows.first().locator('.value').innerText()).toBe('409 IDEMPOTENCY_KEY_CONFLICT');
    expect(await page.locator('#choices').isVisible()).toBe(true);
  });

  it('filters by search text', async () => {
    const { page } = guarded;
    await page.locator('#q').fill('idempotency');
    expect(await page.locator('tr.row').filter({ visible: true }).count()).toBe(2);
    await page.locator('#q').fill('no such requirement');
    expect(await page.locator('#empty').isVisible()).toBe(true);
    await page.locator('#reset').click();
    expect(await page.locator('tr.row').filter({ visible: true }).count()).toBe(23);
  });

  it('expands a failure to show expected/received, the replay command and the curl evidence', async () => {
    const { page } = guarded;
    const failure = page.locator('#fail-CREATE-TITLE-OPTIONAL-UP-TO-120');
    const curl = failure.locator('pre.curl').first();
    expect(await curl.isVisible()).toBe(false);
    await failure.locator('summary').click();
    expect(await curl.isVisible()).toBe(true);
    expect(await curl.innerText()).toMatch(/^curl -sS -i -X POST \\\n {2}-H "authorization: Bearer \$TRYON_API_KEY"/);
    expect(await failure.locator('.diff .rec pre').innerText()).toBe('500');
    expect(await failure.locator('pre.cmd').innerText()).toContain('npx tryon-conformance run');
    // Copy puts the command on the clipboard, or selects it where the clipboard is not allowed.
    await failure.locator('.block .copy').first().click();
  });

  it('opens the failure a matrix badge links to', async () => {
    const { page } = guarded;
    await page.locator('#req-CREATE-IDEMPOTENCY-REPLAY a.badge').click();
    const failure = page.locator('#fail-CREATE-IDEMPOTENCY-REPLAY');
    expect(await failure.getAttribute('open')).not.toBeNull();
    expect(await failure.locator('.diff .exp pre').innerText()).toBe("'ton_01'");
    // The `<script>` a target sent back is shown as text, never run.
    expect(await failure.locator('pre.ex-body').first().innerText()).toContain('<script>alert(1)</script>');
  });

  it('saves a screenshot to reports/report-screenshot.png', async () => {
    const { page } = guarded;
    // The top of the page with the first failure open: what a reader sees first.
    await page.setViewportSize({ width: 1280, height: 1500 });
    await page.goto('about:blank');
    await page.goto(`${url}#fail-CREATE-TITLE-OPTIONAL-UP-TO-120`, { waitUntil: 'load' });
    expect(await page.locator('#fail-CREATE-TITLE-OPTIONAL-UP-TO-120').getAttribute('open')).not.toBeNull();
    await page.evaluate('window.scrollTo(0, 0)');
    await mkdir(join(paths.root, 'reports'), { recursive: true });
    await page.screenshot({ path: screenshot });
  });

  it('tried to load nothing from off this machine, and its script raised no error', () => {
    expect(guarded.blocked).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
