/**
 * The suite's collection for a run's plan, kept by content (issue 15: a full embedded run in 20 s).
 * Collecting the suite for the plan imports every file in a worker of its own before the run starts
 * (2-3 s of a 20-second run on 2 cores). What it gives depends only on the suite's files and the
 * configuration it is collected with, so a run with test control keeps it under a key made of both
 * and the next such run plans from it without collecting.
 *
 * Kept only for targets with test control (the embedded server, or one that offers it): there the
 * plan's grant cannot cost money. A run that planned from a kept collection compares it with the
 * tests it then collected itself (collection-check.ts); a difference is an error of the run, and
 * the entry is removed. `TRYON_CACHE=off` turns the cache off; `TRYON_CACHE_DIR` moves it.
 *
 * The key: the text of every file the suite's files and the vitest config reach by relative
 * imports (module-graph.ts), the tool's version, the project, `--grep`, and the configuration
 * without its seed (a seed changes what a run sends, not which tests it declares).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { keepFile, keptDirOf, removeQuietly } from '../cache/kept-files.ts';
import type { SuiteConfig } from '../suite/config.ts';
import { stableJson } from './collection-check.ts';
import { reachableFiles } from './module-graph.ts';
import type { PlannedTest } from './plan.ts';

/** What a kept collection is keyed by and where it lives. */
export interface CollectionCache {
  readonly file: string;
  /** The kept tests, or undefined when there are none for this key (or they do not read back). */
  read(): PlannedTest[] | undefined;
  /** Keeps `tests` (a write that fails leaves no entry: the cache is only ever a shortcut). */
  write(tests: readonly PlannedTest[]): void;
  /** Removes the entry. */
  forget(): void;
}

/** Bumped when what an entry holds changes shape. */
const entryVersion = 1;

/** Where, given the vitest project of the run, the suite's files are. */
export interface SuiteLocation {
  readonly root: string;
  /** The vitest config file. */
  readonly config: string;
  readonly project: readonly string[];
}

/**
 * The cache entry of a run of `config` narrowed by `grep`, or undefined when the cache does not
 * apply: no test control, or `TRYON_CACHE=off`. It lives in the folder of kept files
 * (cache/kept-files.ts: `TRYON_CACHE_DIR`, else the nearest node_modules/.cache).
 */
export function collectionCacheFor(
  location: SuiteLocation,
  config: SuiteConfig,
  grep: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): CollectionCache | undefined {
  const dir = config.control === undefined ? undefined : keptDirOf(location.root, env);
  if (dir === undefined) return undefined;
  const file = join(dir, `collection-${collectionKey(location, config, grep)}.json`);
  return {
    file,
    read() {
      try {
        const entry = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; tests?: unknown };
        return entry.version === entryVersion && Array.isArray(entry.tests) ? (entry.tests as PlannedTest[]) : undefined;
      } catch {
        return undefined;
      }
    },
    write(tests) {
      keepFile(file, JSON.stringify({ version: entryVersion, tests }));
    },
    forget() {
      removeQuietly(file);
    },
  };
}

/** The key of a collection: SHA-256 over everything it depends on. */
export function collectionKey(location: SuiteLocation, config: SuiteConfig, grep: string | undefined): string {
  const hash = createHash('sha256');
  const { seed: _seed, ...declaring } = config;
  hash.update(stableJson({ entryVersion, tool: toolVersion(location.root), project: location.project, grep: grep ?? null, config: declaring }));
  const entries = [location.config, ...suiteEntries(location)];
  for (const { file, source } of reachableFiles(entries, location.root)) hash.update(`\0${relative(location.root, file)}\0${source}`);
  return hash.digest('hex').slice(0, 32);
}

/**
 * What vitest loads for the project besides its config: every suite file (`*.suite.ts` from the
 * sources, `*.suite.js` compiled) and the global setup, which the config names as a path, not an import.
 */
function suiteEntries(location: SuiteLocation): string[] {
  const [layout, ext] = location.config.endsWith('.js') ? ['dist', 'js'] : ['src', 'ts'];
  const dir = join(location.root, layout, 'suite');
  const suites = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(`.suite.${ext}`))
    .sort()
    .map((name) => join(dir, name));
  return [...suites, join(location.root, layout, 'run', `global-setup.${ext}`)];
}

function toolVersion(root: string): string {
  try {
    return String((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown }).version);
  } catch {
    return 'unknown';
  }
}
