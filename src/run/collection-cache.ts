/**
 * The suite's collection for a run's plan, kept by content so that the next run with test control
 * plans without importing every file first. Only with test control, where the grant costs no money;
 * a run planned from a kept entry checks it against its own collection (collection-check.ts).
 * The key covers every file the suite reaches, the tool's version, the project, `--grep` and the
 * configuration without its seed (a seed changes what a run sends, not which tests it declares).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { keepFile, removeQuietly } from '../cache/kept-files.ts';
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
 * The cache entry of a run of `config` narrowed by `grep`, in `dir` (the folder of kept files,
 * cache/kept-files.ts); undefined when the cache does not apply: no test control, or no folder.
 */
export function collectionCacheFor(
  location: SuiteLocation,
  config: SuiteConfig,
  grep: string | undefined,
  dir: string | undefined,
): CollectionCache | undefined {
  if (config.control === undefined || dir === undefined) return undefined;
  const file = join(dir, `collection-${collectionKey(location, config, grep)}.json`);
  return {
    file,
    read() {
      try {
        const entry = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown; tests?: unknown };
        return entry.version === entryVersion && Array.isArray(entry.tests)
          ? (entry.tests as PlannedTest[])
          : undefined;
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
  hash.update(
    stableJson({
      entryVersion,
      tool: toolVersion(location.root),
      project: location.project,
      grep: grep ?? null,
      config: declaring,
    }),
  );
  const entries = [location.config, ...suiteEntries(location)];
  for (const { file, source } of reachableFiles(entries, location.root))
    hash.update(`\0${relative(location.root, file)}\0${source}`);
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
