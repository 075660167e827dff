import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { transpiledEntry } from './transpiled-tree.ts';

const root = mkdtempSync(join(tmpdir(), 'transpiled-tree-'));
const tree = { srcDir: join(root, 'src'), outDir: join(root, '.transpiled') };
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('transpiledEntry', () => {
  write(join(root, 'package.json'), '{ "type": "module" }');
  write(
    join(tree.srcDir, 'suite', 'entry.ts'),
    [
      "import type { Shape } from '../lib/shape.ts';",
      "import { area } from '../lib/area.ts';",
      "// a comment that names './nothing.ts' brings nothing",
      "const worker: URL = new URL('./helper.mjs', import.meta.url);",
      'const square: Shape = { side: 3 };',
      "const { twice } = await import('../lib/twice.ts');",
      "console.log(JSON.stringify({ area: area(square), twice: twice(2), worker: worker.pathname.endsWith('/suite/helper.mjs') }));",
    ].join('\n'),
  );
  write(join(tree.srcDir, 'suite', 'helper.mjs'), 'export const helper = 1;\n');
  write(join(tree.srcDir, 'lib', 'shape.ts'), 'export interface Shape { readonly side: number }\n');
  write(
    join(tree.srcDir, 'lib', 'area.ts'),
    "import type { Shape } from './shape.ts';\nexport const area = (s: Shape): number => s.side * s.side;\n",
  );
  write(join(tree.srcDir, 'lib', 'twice.ts'), 'export const twice = (n: number): number => n * 2;\n');
  write(join(tree.srcDir, 'lib', 'unused.ts'), 'export const unused = 1;\n');

  it('writes the JavaScript of the entry and of every module it reaches, and copies the files it refers to', () => {
    const entry = transpiledEntry(join(tree.srcDir, 'suite', 'entry.ts'), tree);
    expect(entry).toBe(join(tree.outDir, 'suite', 'entry.js'));
    expect(JSON.parse(execFileSync(process.execPath, [entry], { encoding: 'utf8' }))).toEqual({
      area: 9,
      twice: 4,
      worker: true,
    });
    expect(readFileSync(join(tree.outDir, 'lib', 'area.js'), 'utf8')).not.toContain('Shape');
    expect(readFileSync(join(tree.outDir, 'suite', 'helper.mjs'), 'utf8')).toBe('export const helper = 1;\n');
    expect(() => statSync(join(tree.outDir, 'lib', 'unused.js'))).toThrow();
  });

  it('transpiles a file again only when its source is newer than its JavaScript', () => {
    const twice = join(tree.outDir, 'lib', 'twice.js');
    const area = join(tree.outDir, 'lib', 'area.js');
    const past = new Date(Date.now() - 60_000);
    utimesSync(twice, past, past);
    utimesSync(area, past, past);
    const source = join(tree.srcDir, 'lib', 'twice.ts');
    writeFileSync(source, 'export const twice = (n: number): number => n + n + 1;\n');
    utimesSync(
      join(tree.srcDir, 'lib', 'area.ts'),
      new Date(past.getTime() - 60_000),
      new Date(past.getTime() - 60_000),
    );
    const entry = transpiledEntry(join(tree.srcDir, 'suite', 'entry.ts'), tree);
    expect(JSON.parse(execFileSync(process.execPath, [entry], { encoding: 'utf8' }))).toMatchObject({ twice: 5 });
    expect(Math.abs(statSync(area).mtimeMs - past.getTime())).toBeLessThan(1);
    expect(statSync(twice).mtimeMs).toBeGreaterThan(past.getTime());
  });
});
