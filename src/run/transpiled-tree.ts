/**
 * A run from the sources (`npm start`) starts its child processes (the embedded server's instances
 * and the fixture host, embedded-target.ts) as plain node on JavaScript, not under tsx: each child
 * under tsx spent 1.5-2 s of CPU more on loading its modules, four of them at once on a 2-core
 * machine, while the run waited for them (issue 15).
 *
 * The JavaScript is the entry's module graph, each file transpiled on its own (TypeScript's
 * transpileModule: types erased, `.ts` specifiers rewritten to `.js`, as `npm run build` emits them)
 * into a tree beside src/ at the same depth (`.transpiled/`, like `dist/`), so that paths a module
 * takes relative to itself (`../../openapi.yaml`) still resolve. A file is transpiled again only
 * when its source is newer; other files a module refers to (`new URL('./decode-worker.mjs', …)`)
 * are copied. Writes are a rename, so two runs at once do not see half a file.
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
