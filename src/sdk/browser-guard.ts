/**
 * Spec, Authentication 5: "Keys must be kept on the server only (environment variables, not a
 * frontend bundle or repository)", and What the service does: "The API key must never reach a
 * browser or mobile app bundle." The client refuses to start where a browser global is present.
 */
import { TryOnInBrowserError } from './errors.ts';

/** The browser globals that betray a page or a web worker (Node has `navigator` since v21, so it is not one). */
const browserGlobals = ['window', 'document', 'importScripts'] as const;

/** Throws TryOnInBrowserError when `scope` looks like a browser. */
export function refuseBrowser(scope: object = globalThis): void {
  const g = scope as Record<string, unknown>;
  if (browserGlobals.some((name) => g[name] !== undefined)) throw new TryOnInBrowserError();
}
