/**
 * A patched copy of the server's tree for one source mutant: `src/`, the contract files the code
 * reads at run time (openapi.yaml, openapi-control.yaml, spec/) and package.json, in a temporary
 * directory, with node_modules linked, and the mutant's edits applied. The copy's embedded target
 * (`src/run/embedded-target.ts`) starts the patched server; the suite that judges it is this tree's.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { startEmbeddedTarget } from '../../../src/run/embedded-target.ts';
import { applyEdits, type SourceMutant } from './source-mutant.ts';

export const repoRoot = new URL('../../../', import.meta.url).pathname;

const copied = ['src', 'spec', 'openapi.yaml', 'openapi-control.yaml', 'package.json', 'tsconfig.json'];

export interface PatchedCopy {
  readonly dir: string;
  /** `startEmbeddedTarget` of the copy: the patched reference server, its fixture host and test control. */
  readonly start: typeof startEmbeddedTarget;
  remove(): void;
}

/** Copies the tree, applies `mutant` (none: the unpatched baseline) and loads the copy's embedded target. */
export async function patchedCopy(mutant: SourceMutant | undefined, root = repoRoot): Promise<PatchedCopy> {
  const dir = mkdtempSync(join(tmpdir(), `tryon-source-mutant-${mutant?.name ?? 'baseline'}-`));
  for (const entry of copied)
    cpSync(join(root, entry), join(dir, entry), { recursive: true, filter: (src) => !src.endsWith('.test.ts') });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  if (mutant) {
    for (const part of [mutant, ...(mutant.alsoEdits ?? [])]) {
      const file = join(dir, part.file);
      writeFileSync(file, applyEdits(readFileSync(file, 'utf8'), { ...part, name: mutant.name }));
    }
  }
  const embedded = (await import(pathToFileURL(join(dir, 'src/run/embedded-target.ts')).href)) as {
    startEmbeddedTarget: typeof startEmbeddedTarget;
  };
  return { dir, start: embedded.startEmbeddedTarget, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
