/**
 * runConformance() as an integrator's script calls it: against a target that fails one test, it returns
 * exit code 1 and leaves the caller's process exit status as it found it (vitest, inside, sets it on
 * a failed test). With an expectations file naming the failure, it returns 0.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const child = new URL('./run-conformance-child.ts', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tryon-run-conformance-'));
let server: Server;
let baseUrl: string;

// Answers every request 200 with one JSON body: the API as far as preflight asks, wrong on every unknown path.
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"credits":100}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

interface ChildSaid {
  readonly returned: number;
  readonly outcome: string;
  readonly before: number | null;
  readonly after: number | null;
  readonly expected: readonly string[];
}

function runChild(env: Record<string, string>): Promise<{ code: number | null; said: ChildSaid; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, TRYON_BASE_URL: baseUrl, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('error', reject);
    p.on('exit', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      try {
        resolve({ code, said: JSON.parse(last) as ChildSaid, stderr });
      } catch {
        reject(new Error(`the child printed no result (exit ${code}): ${stdout}\n${stderr}`));
      }
    });
  });
}

const grep = 'answers 404 NOT_FOUND for any path under /api/v1 that has no endpoint';

describe('runConformance in a caller of its own', () => {
  it('returns exit code 1 for a failing run and leaves the process exit status alone', {
    timeout: 240_000,
  }, async () => {
    const { code, said, stderr } = await runChild({ TRYON_GREP: grep });
    expect(said.returned, stderr).toBe(1);
    expect(said.outcome).toBe('fail');
    expect(said.after).toBe(said.before);
    expect(code).toBe(0);
  });

  it('returns 0 when an expectations file names the failure', { timeout: 240_000 }, async () => {
    const file = join(dir, 'expect.yaml');
    const entries = ['ROUTING-UNKNOWN-PATH-404', 'ERR-NOT-FOUND', 'ERR-ENVELOPE-SHAPE'].map(
      (id) => `  - id: ${id}\n    reason: the stub answers 200 to everything`,
    );
    writeFileSync(file, `expectations:\n${entries.join('\n')}\n`);
    const { code, said, stderr } = await runChild({ TRYON_GREP: grep, TRYON_EXPECT: file });
    expect(said.returned, stderr).toBe(0);
    expect(said.outcome).toBe('pass');
    expect(said.expected).toContain('ROUTING-UNKNOWN-PATH-404:failing');
    expect(code).toBe(0);
  });
});
