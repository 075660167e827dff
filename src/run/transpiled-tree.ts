/**
 * A run from the sources starts its child processes (embedded-target.ts) as plain node on JavaScript, not
 * under tsx, whose module loading costs each child much more CPU. Each file of the entry's module graph is
 * transpiled alone (transpileModule, `.ts` specifiers rewritten to `.js`, as `npm run build` does) into
 * `.transpiled/` beside src/, so relative paths still resolve; again only when its source is newer. Other
 * files a module refers to are copied. Writes are a rename, so two runs at once never see half a file.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reachableFiles } from './module-graph.ts';

type TypeScript = typeof import('typescript');

export interface TranspiledTree {
  /** src/ */
  readonly srcDir: string;
  /** Where the JavaScript goes: a sibling of srcDir. */
  readonly outDir: string;
}

const srcDir = fileURLToPath(new URL('..', import.meta.url));

/** The repository's tree: src/ into .transpiled/. */
export const repositoryTree: TranspiledTree = { srcDir, outDir: resolve(srcDir, '..', '.transpiled') };

let typescript: TypeScript | undefined;
const loadTypeScript = (): TypeScript => (typescript ??= createRequire(import.meta.url)('typescript') as TypeScript);

/**
 * The JavaScript of `entry` (a .ts file under tree.srcDir) and of every module it reaches, up to
 * date in tree.outDir; returns the path of the entry's .js.
 */
export function transpiledEntry(entry: string, tree: TranspiledTree = repositoryTree): string {
  for (const { file, source } of reachableFiles([entry], tree.srcDir)) {
    const out = outputOf(file, tree);
    if (existsSync(out) && statSync(out).mtimeMs >= statSync(file).mtimeMs) continue;
    mkdirSync(dirname(out), { recursive: true });
    const temporary = `${out}.${process.pid}.tmp`;
    if (extname(file) === '.ts') writeFileSync(temporary, transpile(source, file));
    else copyFileSync(file, temporary);
    renameSync(temporary, out);
  }
  return outputOf(resolve(entry), tree);
}

function outputOf(file: string, tree: TranspiledTree): string {
  const inTree = join(tree.outDir, relative(tree.srcDir, file));
  return extname(inTree) === '.ts' ? `${inTree.slice(0, -3)}.js` : inTree;
}

function transpile(source: string, fileName: string): string {
  const ts = loadTypeScript();
  return ts.transpileModule(source, {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      rewriteRelativeImportExtensions: true,
      removeComments: true,
    },
  }).outputText;
}
