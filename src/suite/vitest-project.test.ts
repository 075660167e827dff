import { describe, expect, it } from 'vitest';
import { conformanceProject } from './vitest-project.ts';

describe('conformanceProject', () => {
  it('is one project whose sources and compiled files differ only in where they are', () => {
    const src = conformanceProject('src').test;
    const dist = conformanceProject('dist').test;
    expect(src?.include).toEqual(['src/suite/**/*.suite.ts']);
    expect(dist?.include).toEqual(['dist/suite/**/*.suite.js']);
    expect(dist?.globalSetup).toEqual(['dist/suite/global-setup.js']);
    const { include: _a, globalSetup: _b, ...rest } = src ?? {};
    const { include: _c, globalSetup: _d, ...restDist } = dist ?? {};
    expect(restDist).toEqual(rest);
  });

  it('excludes nothing by default, so that the suite runs from inside node_modules', () => {
    expect(conformanceProject('dist').test?.exclude).toEqual([]);
  });
});
