/**
 * A patched copy of the repository for one client mutant: the sources, the tests and the configs
 * the client's tests need, in a temporary directory, node_modules linked, the mutant's edits
 * applied. The client's tests then run inside the copy, so the main tree is never touched.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyEdits } from '../source/source-mutant.ts';
import type { ClientMutant } from './client-mutants.ts';

export const repoRoot = new URL('../../../', import.meta.url).pathname;

const copied = [
  'src',
  'tests',
  'spec',
  'openapi.yaml',
  'openapi-control.yaml',
  'package.json',
  'tsconfig.json',
  'vitest.config.ts',
];

export interface ClientCopy {
  readonly dir: string;
  remove(): void;
}

/** Copies the tree and applies `mutant` (none: the unpatched baseline). */
export function clientCopy(mutant: ClientMutant | undefined, root = repoRoot): ClientCopy {
  const dir = mkdtempSync(join(tmpdir(), `tryon-client-mutant-${mutant?.name ?? 'baseline'}-`));
  for (const entry of copied) cpSync(join(root, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  if (mutant) {
    const file = join(dir, mutant.file);
    writeFileSync(file, applyEdits(readFileSync(file, 'utf8'), mutant));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
