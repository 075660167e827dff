/**
 * The README's express recipe works as written: its mock, started as given (on a free port instead of
 * 4010), and its run command give the exit status and the closing lines the README shows, the counts
 * aside (they move as the suite grows).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The fenced block right after `<!-- recipe:NAME -->`. */
function recipeBlock(name: string): string {
  const found = new RegExp(`<!-- recipe:${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
  if (!found?.[1]) throw new Error(`README has no block after <!-- recipe:${name} -->`);
  return found[1];
}

/** A line with its numbers as patterns: "Tests: 91 (12 passed" matches "Tests: 93 (14 passed". */
function shape(line: string): RegExp {
  const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const numbers = escaped.replace(/\d+(?:\\\.\d+)?/g, '\\d+(?:\\.\\d+)?');
  // A duration of seconds may have grown minutes.
  return new RegExp(`^${numbers.replaceAll('\\d+(?:\\.\\d+)? s', '(?:\\d+ min )?\\d+(?:\\.\\d+)? s')}$`);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

// In the repository, so that the mock's `import 'express'` resolves (a devDependency here).
mkdirSync(join(root, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(root, '.tmp', 'readme-recipe-'));
let mock: ChildProcess | undefined;
afterAll(() => {
  mock?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('the README recipe for a plain express mock', () => {
  it('gives the exit status and the closing lines the README shows', async () => {
    const port = String(await freePort());
    writeFileSync(join(dir, 'mock.mjs'), recipeBlock('express-mock').replaceAll('4010', port));
    mock = spawn(process.execPath, ['mock.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      mock?.stdout?.once('data', () => resolve());
      mock?.once('exit', (code) => reject(new Error(`the mock exited ${code}`)));
    });

    const commands = recipeBlock('express-run').split('\n');
    const apiKey = /^export TRYON_API_KEY=(\S+)$/m.exec(commands.join('\n'))?.[1];
    const runLine = commands.find((l) => l.startsWith('npx tryon-conformance run '));
    const [command, status] = runLine?.split(/\s+# exit /) ?? [];
    if (!apiKey || !command || !status) throw new Error('the recipe has no key, run line or "# exit N"');
    const args = command.replace('npx tryon-conformance ', '').replaceAll('4010', port).trim().split(/\s+/);
    const env = { ...process.env, TRYON_API_KEY: apiKey, CI: '1' };
    const reportDir = join(dir, 'reports');
    const r = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [join(root, 'bin/tryon-conformance.js'), ...args, '--report-dir', reportDir],
        { env, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
        (_error, stdout) => resolve({ code: child.exitCode, stdout }),
      );
    });
    expect(r.code).toBe(Number(status));
    const printed = r.stdout.split('\n');
    for (const line of recipeBlock('express-output')
      .split('\n')
      .filter((l) => l !== '…')) {
      expect({ line, printed: printed.some((p) => shape(line).test(p)) }).toEqual({ line, printed: true });
    }
  }, 300_000);
});
