/**
 * The toolkit's kept files: shortcuts a run keeps for the next one (the suite's collection for its plan,
 * openapi.yaml parsed), in `TRYON_CACHE_DIR` or the nearest node_modules/.cache; none with `TRYON_CACHE=off`.
 * A kept file is only a shortcut: one that cannot be written is not kept.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Under the nearest node_modules/.cache, as other tools keep theirs: the repository's own, or,
 * for an installed package, that of the project it is installed in.
 */
export function cacheDirOf(root: string): string {
  const marker = '/node_modules/';
  const at = root.lastIndexOf(marker);
  const base = at >= 0 ? root.slice(0, at + marker.length - 1) : join(root, 'node_modules');
  return join(base, '.cache', 'tryon-conformance');
}

/** The folder of kept files for the toolkit at `root`, or undefined when `TRYON_CACHE=off`. */
export function keptDirOf(root: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env.TRYON_CACHE === 'off') return undefined;
  return env.TRYON_CACHE_DIR || cacheDirOf(root);
}

/** Writes `text` to `path` through a rename, so a reader never sees half of it; a failure leaves nothing. */
export function keepFile(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch {
    removeQuietly(temporary);
  }
}

/** Removes `path` if it is there; never throws. */
export function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing there to remove (a path through a file is no path at all), or nothing can be removed there.
  }
}
