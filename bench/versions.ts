/** The versions a benchmark run measured: Node, the packages that serve and load, and the commit. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './common.ts';

export interface Versions {
  readonly node: string;
  readonly fastify: string;
  readonly autocannon: string;
  readonly prism: string;
  readonly betterSqlite3: string;
  readonly sharp: string;
  /** libvips, as sharp reports it. */
  readonly libvips: string;
  readonly vitest: string;
  readonly tsx: string;
}

/** The installed version of a package under node_modules, or 'unknown'. */
export function installedVersion(name: string): string {
  try {
    return (
      (JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string })
        .version ?? 'unknown'
    );
  } catch {
    return 'unknown';
  }
}

export async function versions(): Promise<Versions> {
  let libvips = 'unknown';
  try {
    const sharp = (await import('sharp')).default;
    libvips = sharp.versions.vips ?? 'unknown';
  } catch {
    // sharp not loadable: its version below still says what is installed
  }
  return {
    node: process.version,
    fastify: installedVersion('fastify'),
    autocannon: installedVersion('autocannon'),
    prism: installedVersion('@stoplight/prism-cli'),
    betterSqlite3: installedVersion('better-sqlite3'),
    sharp: installedVersion('sharp'),
    libvips,
    vitest: installedVersion('vitest'),
    tsx: installedVersion('tsx'),
  };
}
