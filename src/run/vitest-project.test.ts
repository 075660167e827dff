import { describe, expect, it } from 'vitest';
import { conformanceProject, embeddedWorkers } from './vitest-project.ts';

describe('conformanceProject', () => {
  it('is one project whose sources and compiled files differ only in where they are', () => {
    for (const mode of ['any-target', 'embedded'] as const) {
      const src = conformanceProject('src', mode).test;
      const dist = conformanceProject('dist', mode).test;
      expect(src?.include).toEqual(['src/suite/**/*.suite.ts']);
      expect(dist?.include).toEqual(['dist/suite/**/*.suite.js']);
      expect(dist?.globalSetup).toEqual(['dist/run/global-setup.js']);
      const { include: _a, globalSetup: _b, ...rest } = src ?? {};
      const { include: _c, globalSetup: _d, ...restDist } = dist ?? {};
      expect(restDist).toEqual(rest);
    }
  });

  it('excludes nothing by default, so that the suite runs from inside node_modules', () => {
    expect(conformanceProject('dist').test?.exclude).toEqual([]);
  });

  it('runs files one after another for any target, and in parallel only against the embedded server', () => {
    expect(conformanceProject('src').test).toMatchObject({
      name: 'conformance',
      fileParallelism: false,
      maxWorkers: 1,
    });
    expect(conformanceProject('src', 'embedded').test).toMatchObject({
      name: 'conformance-embedded',
      fileParallelism: true,
      maxWorkers: embeddedWorkers,
    });
  });
});
