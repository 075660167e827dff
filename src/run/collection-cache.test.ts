import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SuiteConfig } from '../suite/config.ts';
import type { PlannedTest } from './plan.ts';
import { cacheDirOf, keptDirOf } from '../cache/kept-files.ts';
import { collectionCacheFor, collectionKey, type SuiteLocation } from './collection-cache.ts';

let root: string;
let location: SuiteLocation;
const config: SuiteConfig = {
  baseUrl: 'http://127.0.0.1/api/v1',
  control: { url: 'embedded', token: 'embedded' },
  creditBudget: 10_000,
  seed: 1,
  profile: 'full',
};
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};
const tests: PlannedTest[] = [
  {
    name: 'a > one',
    file: 'src/suite/a.suite.ts',
    requirements: [],
    needs: [],
    cost: { credits: 1, starts: 1, polls: 0, uploads: 0 },
    value: 'rest',
  },
];

beforeEach(() => {
  root = `${mkdtempSync(join(tmpdir(), 'collection-cache-'))}/`;
  write('package.json', '{"version":"1.0.0"}');
  write('vitest.config.ts', "import { project } from './src/suite/project.ts';\nexport default project;\n");
  write('src/suite/project.ts', 'export const project = {};\n');
  write('src/run/global-setup.ts', 'export default () => {};\n');
  write('src/suite/a.suite.ts', "import { helper } from './helper.ts';\nhelper();\n");
  write('src/suite/helper.ts', "import { deep } from '../shared/deep.ts';\nexport const helper = deep;\n");
  write('src/shared/deep.ts', 'export const deep = () => 1;\n');
  write('src/unrelated.ts', 'export const unrelated = 1;\n');
  location = { root, config: join(root, 'vitest.config.ts'), project: ['conformance-embedded'] };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('collectionKey', () => {
  const key = (c: SuiteConfig = config, grep?: string) => collectionKey(location, c, grep);

  it('is the same for the same files and configuration, whatever the seed or the files’ times', () => {
    const before = key();
    utimesSync(join(root, 'src/suite/helper.ts'), new Date(0), new Date(0));
    expect(key({ ...config, seed: 99 })).toBe(before);
  });

  it.each([
    ['a suite file', 'src/suite/a.suite.ts'],
    ['a module a suite file imports', 'src/suite/helper.ts'],
    ['a module reached two imports deep', 'src/shared/deep.ts'],
    ['the vitest config', 'vitest.config.ts'],
    ['a module the config imports', 'src/suite/project.ts'],
    ['the global setup', 'src/run/global-setup.ts'],
    ["the tool's version", 'package.json'],
  ])('changes when %s changes', (_name, path) => {
    const before = key();
    write(path, path === 'package.json' ? '{"version":"1.0.1"}' : `// changed\nexport const changed = 1;\n`);
    expect(key()).not.toBe(before);
  });

  it('changes with a new suite file, but not with a module nothing in the suite reaches', () => {
    const before = key();
    write('src/unrelated.ts', 'export const unrelated = 2;\n');
    expect(key()).toBe(before);
    write('src/suite/nested/b.suite.ts', 'export {};\n');
    expect(key()).not.toBe(before);
  });

  it('changes with the configuration the tests are declared with, --grep and the project', () => {
    const before = key();
    expect(key({ ...config, profile: 'quick' })).not.toBe(before);
    expect(key({ ...config, numRuns: 3 })).not.toBe(before);
    expect(key(config, 'uploads')).not.toBe(before);
    expect(collectionKey({ ...location, project: ['conformance'] }, config, undefined)).not.toBe(before);
  });
});

describe('collectionCacheFor', () => {
  const dir = () => join(root, 'cache');

  it('keeps, reads back and forgets the tests of a collection', () => {
    const cache = collectionCacheFor(location, config, undefined, dir());
    expect(cache?.read()).toBeUndefined();
    cache?.write(tests);
    expect(collectionCacheFor(location, { ...config, seed: 7 }, undefined, dir())?.read()).toEqual(tests);
    cache?.forget();
    expect(cache?.read()).toBeUndefined();
  });

  it('reads nothing for another key, and nothing from an entry that does not parse', () => {
    collectionCacheFor(location, config, undefined, dir())?.write(tests);
    expect(collectionCacheFor(location, { ...config, profile: 'quick' }, undefined, dir())?.read()).toBeUndefined();
    const cache = collectionCacheFor(location, config, undefined, dir());
    writeFileSync(cache?.file ?? '', '{"version":1,"tests":');
    expect(cache?.read()).toBeUndefined();
  });

  it('does not apply without test control, nor with TRYON_CACHE=off', () => {
    const { control: _control, ...remote } = config;
    expect(collectionCacheFor(location, remote, undefined, dir())).toBeUndefined();
    const off = keptDirOf(root, { TRYON_CACHE: 'off', TRYON_CACHE_DIR: dir() });
    expect({ off, cache: collectionCacheFor(location, config, undefined, off) }).toEqual({
      off: undefined,
      cache: undefined,
    });
    expect(keptDirOf(root, { TRYON_CACHE_DIR: dir() })).toBe(dir());
  });

  it('leaves no entry and throws nothing when it cannot write', () => {
    write('blocked', 'a file where the cache directory would be');
    const cache = collectionCacheFor(location, config, undefined, join(root, 'blocked', 'cache'));
    expect(() => cache?.write(tests)).not.toThrow();
    expect(cache?.read()).toBeUndefined();
    expect(readdirSync(root)).not.toContain('cache');
  });
});

describe('cacheDirOf', () => {
  it('is the repository’s node_modules/.cache, or that of the project a package is installed in', () => {
    expect(cacheDirOf('/work/repo/')).toBe('/work/repo/node_modules/.cache/tryon-conformance');
    expect(cacheDirOf('/work/app/node_modules/tryon-conformance/')).toBe(
      '/work/app/node_modules/.cache/tryon-conformance',
    );
    expect(cacheDirOf('/w/app/node_modules/@acme/x/node_modules/tryon-conformance/')).toBe(
      '/w/app/node_modules/@acme/x/node_modules/.cache/tryon-conformance',
    );
  });
});
