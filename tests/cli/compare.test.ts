/** `compare` at the CLI: one paragraph by default, `--format full|json`, exit 1 only on a regression. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report, RequirementResult } from '../../src/report/model.ts';

const bin = new URL('../../bin/tryon-conformance.js', import.meta.url).pathname;
const reference = new URL('../../reports/reference/report.json', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'tryon-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const compare = (...args: string[]) =>
  spawnSync(process.execPath, [bin, 'compare', ...args], { encoding: 'utf8', timeout: 60_000 });

/** The reference report with one MUST failing and every other pass turned into a skip. */
function changedReport(): string {
  const report = JSON.parse(readFileSync(reference, 'utf8')) as Report;
  let broke = false;
  const requirements = report.requirements.map((r): RequirementResult => {
    if (r.verdict !== 'pass') return r;
    const { coverage: _partial, ...rest } = r;
    if (!broke && r.level === 'MUST' && r.implementationDefined !== true) {
      broke = true;
      const replay = { seed: 1, command: 'npx tryon-conformance run --seed 1' };
      return {
        ...rest,
        verdict: 'fail',
        failures: [{ test: r.tests[0] ?? 't', message: 'broken', replay, evidence: [] }],
      };
    }
    return { ...rest, verdict: 'skip', reason: 'not run \u001b[2J' };
  });
  const file = join(dir, 'changed.json');
  writeFileSync(file, JSON.stringify({ ...report, requirements }));
  return file;
}

describe('tryon-conformance compare', () => {
  const changed = changedReport();

  it('prints one paragraph by default, the regression by name, and exits 1', () => {
    const r = compare(reference, changed);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout.trim().split('\n\n')).toHaveLength(1);
    expect(r.stdout.replace(/\n/g, ' ')).toMatch(
      /^B \(.*changed\.json\) against A \(.*report\.json\): 1 regression \(MUST, pass → fail\): [A-Z0-9-]+\./,
    );
    expect(r.stdout.replace(/\n/g, ' ')).toMatch(
      / \d+ otherwise changed \(\d+ pass → skip\)\. `--format full` lists every change\./,
    );
    expect(r.stdout.split('\n').length).toBeLessThanOrEqual(6);
  });

  it('lists every change with --format full, and the same as JSON with --format json', () => {
    const full = compare('--format', 'full', reference, changed);
    expect(full.status).toBe(1);
    expect(full.stdout).toMatch(/^✗ {2}[A-Z0-9-]+ +MUST +pass +fail$/m);
    expect(full.stdout).toMatch(/^~ {2}[A-Z0-9-]+ +(MUST|SHOULD|MAY) +pass +skip$/m);
    const json = compare(reference, changed, '--format=json');
    expect(json.status).toBe(1);
    const value = JSON.parse(json.stdout) as { counts: { regressed: number; changed: number } };
    expect(value.counts.regressed).toBe(1);
    expect(value.counts.changed).toBeGreaterThan(0);
  });

  it('exits 0 for a report against itself', () => {
    const r = compare(reference, reference);
    expect(r.status).toBe(0);
    expect(r.stdout.replace(/\n/g, ' ')).toMatch(/: no regression\. $/);
  });

  it('exits 2 with one line for an unknown format', () => {
    const r = compare('--format', 'yaml', reference, reference);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("tryon-conformance: compare: --format must be summary, full or json, got 'yaml'\n");
  });
});
