/**
 * The kept collection at the CLI (src/run/collection-cache.ts): an embedded run keeps the suite's
 * collection for its plan, the next plans from it, and a kept collection that does not match the
 * tests a run collects is an error of that run (exit 2), never a plan passed off as this run's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'tryon-collection-cache-'));
const cacheDir = join(work, 'cache');
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A few tests that need no generation: each run is mostly the embedded server starting.
const grep = 'authentication';
const run = () =>
  spawnSync(process.execPath, [bin, 'run', '--grep', grep, '--report-dir', join(work, 'reports')], {
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, CI: 'true', TRYON_CACHE_DIR: cacheDir },
  });
// The kept collections only: the same folder keeps openapi.yaml parsed too (src/contract/openapi.ts).
const entries = () => readdirSync(cacheDir).filter((name) => name.startsWith('collection-') && name.endsWith('.json'));
const latestReport = () =>
  JSON.parse(readFileSync(join(work, 'reports', 'latest', 'report.json'), 'utf8')) as {
    errors: Array<{ message: string }>;
  };

describe('the kept collection of an embedded run', () => {
  it('is kept by the first run, planned from by the next, and a mismatch fails the run that used it', {
    timeout: 600_000,
  }, () => {
    const first = run();
    expect(first.status, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Plan: [1-9]\d* of [1-9]\d* tests to run.*min$/m);
    expect(entries()).toHaveLength(1);

    const second = run();
    expect(second.status, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(
      /^Plan: [1-9]\d* of .*\(from the collection kept for these files, checked against the run\)$/m,
    );
    expect(latestReport().errors).toEqual([]);

    // An entry for other tests under this run's key: the plan it gives was not made for this run.
    const entry = join(cacheDir, entries()[0] ?? '');
    const kept = JSON.parse(readFileSync(entry, 'utf8')) as {
      tests: Array<{ name: string; cost: { starts: number } }>;
    };
    const [renamed, redeclared] = kept.tests;
    if (!renamed || !redeclared) return expect.fail('the kept collection should hold at least two tests');
    renamed.name += ' (renamed)';
    redeclared.cost.starts += 1;
    writeFileSync(entry, JSON.stringify(kept));

    const third = run();
    expect(third.status, third.stdout + third.stderr).toBe(2);
    const messages = latestReport()
      .errors.map((e) => e.message)
      .join('\n');
    expect(messages).toMatch(
      /does not match the tests this run collected: planned, not in the run: 1 .*in the run, not planned: 1 .*declared otherwise: 1 /,
    );
    expect(entries()).toEqual([]);
  });
});
