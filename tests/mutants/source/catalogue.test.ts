import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requirement } from '../../../src/contract/requirements.ts';
import { quickSourceMutants, sourceMutants } from './catalogue.ts';
import { repoRoot } from './patched-copy.ts';
import { applyEdits } from './source-mutant.ts';

describe('source mutants', () => {
  it.each(sourceMutants.map((m) => [m.name, m] as const))(
    '%s still applies to the server source, and changes it',
    (_name, mutant) => {
      for (const part of [mutant, ...(mutant.alsoEdits ?? [])]) {
        const source = readFileSync(join(repoRoot, part.file), 'utf8');
        expect(applyEdits(source, { ...part, name: mutant.name })).not.toBe(source);
      }
    },
  );

  it('have unique names, known requirements, and a quick sample from the list', () => {
    expect(new Set(sourceMutants.map((m) => m.name)).size).toBe(sourceMutants.length);
    for (const m of sourceMutants) for (const id of m.breaks) expect(requirement(id).quote).toBeTruthy();
    for (const name of quickSourceMutants) expect(sourceMutants.map((m) => m.name)).toContain(name);
  });

  it('refuses an edit whose text is missing or occurs twice', () => {
    const m = { name: 'x', file: 'f.ts' };
    expect(() => applyEdits('a b', { ...m, edits: [{ find: 'c', replace: 'd' }] })).toThrow(/no longer contains/);
    expect(() => applyEdits('a a', { ...m, edits: [{ find: 'a', replace: 'd' }] })).toThrow(/more than once/);
    expect(applyEdits('a b', { ...m, edits: [{ find: 'b', replace: 'c' }] })).toBe('a c');
  });
});
