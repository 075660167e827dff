/**
 * The files a module reaches through relative specifiers: imports, re-exports, dynamic imports and
 * `new URL('./…', import.meta.url)`. Read from the text, not resolved by a loader: enough to know
 * which of a package's own files a module depends on (packages are named, not relative, and are
 * left out). Used to transpile the embedded processes' modules (transpiled-tree.ts) and to key the
 * suite's collection by its content (src/run/collection-cache.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const relativeSpecifier = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)(['"])(\.\.?\/[^'"\n]+)\1/g;

/** `entries` and every file under `within` they reach, each once, entries first; each file's text is read once. */
export function reachableFiles(
  entries: readonly string[],
  within: string,
): Array<{ readonly file: string; readonly source: string }> {
  const seen = new Set<string>();
  const found: Array<{ file: string; source: string }> = [];
  const pending = entries.map((entry) => resolve(entry)).reverse();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    found.push({ file, source });
    for (const match of source.matchAll(relativeSpecifier)) {
      const next = resolve(dirname(file), match[2] ?? '');
      // A specifier in a comment, or one built at run time, may name no file: nothing to follow.
      if (next.startsWith(within) && !seen.has(next) && existsSync(next) && statSync(next).isFile()) pending.push(next);
    }
  }
  return found;
}
