/**
 * The packages only some commands need: the reference server's (fastify, SQLite, sharp), the HTTPS
 * fixture host's certificate maker and the docs builder. They are optional peer dependencies, so a
 * project that only runs the suite against its own target installs none of them; a command that needs
 * one checks first and, when it is missing, says in one line what to install (exit 2).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ToolkitError } from './toolkit-errors.ts';

/** What the reference server loads (`serve`, a run without --base-url, `tryon-conformance/server`). */
export const serverPackages = ['fastify', '@fastify/multipart', 'better-sqlite3', 'sharp'] as const;
/** What the loopback HTTPS fixture host loads (`fixtures serve`, a run without --base-url). */
export const fixtureHostPackages = ['selfsigned'] as const;
/** What `docs` runs. */
export const docsPackages = ['@redocly/cli'] as const;

// Resolved from this file, as the command's own imports will be (src/shared or dist/shared).
const resolveFromHere = createRequire(import.meta.url);

/** Whether `name` can be loaded from the toolkit's own folder. */
export function isInstalled(name: string): boolean {
  for (const specifier of [name, `${name}/package.json`]) {
    try {
      resolveFromHere.resolve(specifier);
      return true;
    } catch {
      // Not this way; an ESM-only package or one without a main resolves only by its package.json.
    }
  }
  return false;
}

/**
 * Throws a one-line MISSING_PACKAGE ToolkitError naming every package of `names` that is not
 * installed, with the `npm install` line that adds them at the versions the toolkit declares.
 * `what` says who needs them, e.g. "serve (the reference server)".
 */
export function assertInstalled(what: string, names: readonly string[], installed = isInstalled): void {
  const missing = names.filter((name) => !installed(name));
  if (missing.length === 0) return;
  const ranges = declaredRanges();
  const specs = missing.map((name) => (ranges[name] === undefined ? name : `${name}@${ranges[name]}`));
  throw new ToolkitError(
    'MISSING_PACKAGE',
    `${what} needs ${missing.join(', ')}, not installed (optional for a project that only runs the suite): ` +
      `npm install --save-dev ${specs.join(' ')}`,
  );
}

/**
 * Loads an optional package, or throws the one-line MISSING_PACKAGE error (`what` needs it). Its
 * default export when it has one (a CommonJS module's `module.exports`), else the namespace.
 */
export async function loadOptional<T>(what: string, name: string): Promise<T> {
  assertInstalled(what, [name]);
  const loaded = (await import(name)) as { default?: T } & T;
  return loaded.default ?? loaded;
}

// The ranges of the toolkit's package.json (peerDependencies, then dependencies): two folders up
// from src/shared and from dist/shared alike.
function declaredRanges(): Readonly<Record<string, string>> {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const manifest = JSON.parse(text) as { peerDependencies?: Record<string, string> };
    return manifest.peerDependencies ?? {};
  } catch {
    return {};
  }
}
