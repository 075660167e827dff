/** `run --expect FILE` at the CLI: a bad expectations file is one line and exit 2, before anything is sent. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tryon-expect-flag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [bin, 'run', '--base-url', 'http://127.0.0.1:9', '--api-key', 'k', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });

describe('run --expect', () => {
  it.each<[string, string, string]>([
    ['an unknown ID', 'expectations:\n  - {id: NOPE-X, reason: r}\n', "expectations[0].id: no requirement 'NOPE-X'"],
    ['a bad date', 'expectations:\n  - {id: AUTH-BEARER-REQUIRED, reason: r, expires: 2027-13-01}\n', 'expires'],
    ['a file that is not YAML', 'expectations: [\n', 'not valid YAML or JSON'],
  ])('exits 2 with one line for %s', (_name, text, message) => {
    const file = join(dir, 'expect.yaml');
    writeFileSync(file, text);
    const r = run('--expect', file);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`tryon-conformance: run: --expect ${file}: `);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('exits 2 for --strict-expect without a file', () => {
    const r = run('--strict-expect');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('tryon-conformance: run: --strict-expect needs --expect FILE\n');
  });
});
