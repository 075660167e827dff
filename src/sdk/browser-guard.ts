/**
 * Spec, Authentication 5: "Keys must be kept on the server only (environment variables, not a
 * frontend bundle or repository)", and What the service does: "The API key must never reach a
 * browser or mobile app bundle." The client refuses to start where a browser global is present.
 */
import { TryOnInBrowserError } from './errors.ts';

/**
 * The globals that betray a browser: a page has `window` and `document` (React Native sets `window`
 * too); every web worker scope (dedicated, shared, service, module) has `importScripts` and
 * `WorkerGlobalScope`. Not `navigator` (Node has it since v21, as Deno and Bun do) nor `self` (Deno).
 */
const browserGlobals = ['window', 'document', 'importScripts', 'WorkerGlobalScope'] as const;

/** Throws TryOnInBrowserError when `scope` looks like a browser. */
export function refuseBrowser(scope: object = globalThis): void {
  const g = scope as Record<string, unknown>;
  if (browserGlobals.some((name) => g[name] !== undefined)) throw new TryOnInBrowserError();
}
