/**
 * "The API key must never reach a browser or mobile app bundle" (What the service does) and "Keys
 * must be kept on the server only" (Authentication, rule 5): the client refuses to start where any
 * global of a browser page or web worker is present, and starts where only server runtimes' globals are.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TryOnClient } from '../../src/sdk/index.ts';
import { browserGlobals } from './spec-client-rules.ts';

const g = globalThis as Record<string, unknown>;
const added: string[] = [];
/** Defines `name` on globalThis for this test only. */
function define(name: string, value: unknown): void {
  if (name in g) throw new Error(`${name} is already a global here; the test cannot tell what the guard saw`);
  g[name] = value;
  added.push(name);
}
afterEach(() => {
  for (const name of added.splice(0)) delete g[name];
});

const construct = () => new TryOnClient({ baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'vto_live_GuardKey_01234567' });
const refused = expect.objectContaining({ name: 'TryOnInBrowserError', code: 'CLIENT_IN_BROWSER' });

describe('the browser guard', () => {
  it.each(browserGlobals.flatMap((name) => [[name, 'an object'] as const, [name, 'a function'] as const]))(
    'refuses to start where %s is defined (as %s)',
    (name, kind) => {
      define(name, kind === 'a function' ? () => {} : {});
      // "The API key must never reach a browser or mobile app bundle."
      expect(construct, `a client constructed where ${name} is defined should refuse`).toThrow(refused);
    },
  );

  it('refuses in a web worker, which has self, importScripts and WorkerGlobalScope but no window', () => {
    define('self', g);
    define('WorkerGlobalScope', class WorkerGlobalScope {});
    define('importScripts', () => {});
    expect(construct).toThrow(refused);
  });

  it('starts on a server runtime, navigator included (Node 21+, Deno and Bun have one)', () => {
    if (!('navigator' in g)) define('navigator', { userAgent: 'Node.js' });
    for (const name of browserGlobals)
      expect(name in g, `${name} should not be defined in this test runner`).toBe(false);
    expect(construct()).toBeInstanceOf(TryOnClient);
  });
});
