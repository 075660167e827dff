/**
 * Optional packages: a command that needs one that is missing stops with one line naming it and the
 * install line at the declared range (exit 2), never a stack trace from deep inside an import.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  assertInstalled,
  docsPackages,
  fixtureHostPackages,
  isInstalled,
  loadOptional,
  serverPackages,
} from './optional-packages.ts';
import { ToolkitError } from './toolkit-errors.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

function thrown(fn: () => unknown): ToolkitError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ToolkitError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('optional packages', () => {
  it('are optional peer dependencies of the package, none of them a dependency', () => {
    for (const name of [...serverPackages, ...fixtureHostPackages, ...docsPackages]) {
      expect({ name, range: manifest.peerDependencies[name] }).toEqual({ name, range: expect.any(String) });
      expect({ name, meta: manifest.peerDependenciesMeta[name] }).toEqual({ name, meta: { optional: true } });
      expect({ name, dependency: manifest.dependencies[name] }).toEqual({ name, dependency: undefined });
    }
  });

  it('tells an installed package from a missing one', () => {
    expect(isInstalled('fastify')).toBe(true);
    expect(isInstalled('@redocly/cli')).toBe(true);
    expect(isInstalled('tryon-no-such-package')).toBe(false);
  });

  it('names every missing package in one line, with the install line at the declared ranges, exit 2', () => {
    const error = thrown(() => assertInstalled('serve (the reference server)', serverPackages, (n) => n === 'sharp'));
    expect(error.code).toBe('MISSING_PACKAGE');
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      'serve (the reference server) needs fastify, @fastify/multipart, better-sqlite3, not installed ' +
        '(optional for a project that only runs the suite): npm install --save-dev ' +
        `fastify@${manifest.peerDependencies.fastify} @fastify/multipart@${manifest.peerDependencies['@fastify/multipart']} ` +
        `better-sqlite3@${manifest.peerDependencies['better-sqlite3']}`,
    );
  });

  it('passes when every package is there', () => {
    expect(() => assertInstalled('docs', docsPackages)).not.toThrow();
  });

  it('loads an installed package, and refuses a missing one with the same one line', async () => {
    const yaml = await loadOptional<{ parse: (text: string) => unknown }>('a test', 'yaml');
    expect(yaml.parse('a: 1')).toEqual({ a: 1 });
    await expect(loadOptional('drawing a fixture', 'tryon-no-such-package')).rejects.toThrow(
      /^drawing a fixture needs tryon-no-such-package, not installed .*: npm install --save-dev tryon-no-such-package$/,
    );
  });
});
