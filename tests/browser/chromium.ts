/**
 * Debian's Chromium for the browser tests, driven by playwright-core (no downloaded browsers),
 * plus a network safety net: pages that may reach loopback, file:, data: and blob: URLs only.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where `apt-get install chromium` puts the browser. */
export const chromiumPath = '/usr/bin/chromium';

export interface ChromiumSession {
  readonly context: BrowserContext;
  /** Closes the browser and deletes its fresh profile directory. */
  close(): Promise<void>;
}

/**
 * Starts headless Chromium with a fresh profile in a temporary directory. Playwright refuses
 * `--user-data-dir` in `args` of `launch()`, so the profile goes through
 * `launchPersistentContext(userDataDir)`. Chromium's own background traffic is switched off, and
 * every non-loopback request it would still make goes to a dead proxy on loopback (port 9), a
 * second net under the per-page routing of {@link newGuardedPage}.
 */
export async function launchChromium(): Promise<ChromiumSession> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} is missing: install Debian's chromium (apt-get install -y chromium)`);
  }
  const profile = await mkdtemp(join(tmpdir(), 'tryon-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--proxy-server=http://127.0.0.1:9',
      ],
      viewport: { width: 1280, height: 900 },
    });
    return {
      context,
      async close() {
        await context.close().catch(() => undefined);
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}

export interface GuardedPage {
  readonly page: Page;
  /** URLs the page tried to load from off this machine; each was aborted. */
  readonly blocked: readonly string[];
}

/**
 * Opens a page whose every request (and WebSocket) to anything but loopback, `file:`, `data:`,
 * `blob:` or `about:` is aborted and recorded, so a test can assert that none was attempted.
 */
export async function newGuardedPage(session: ChromiumSession): Promise<GuardedPage> {
  const page = await session.context.newPage();
  const blocked: string[] = [];
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.fallback();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  await page.routeWebSocket(
    (url) => !isLocal(url.href),
    (ws) => {
      blocked.push(ws.url());
      return ws.close();
    },
  );
  return { page, blocked };
}

const localSchemes = new Set(['file:', 'data:', 'blob:', 'about:']);
const loopbackHosts = new Set(['localhost', '[::1]']);

/** True for URLs that stay on this machine. */
export function isLocal(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (localSchemes.has(parsed.protocol)) return true;
  const host = parsed.hostname.toLowerCase();
  return loopbackHosts.has(host) || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host);
}
