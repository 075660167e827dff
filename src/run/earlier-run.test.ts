/** The estimate of a run with test control from an earlier report of the same tests. */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { earlierRunCandidates, estimateFromEarlier, readEarlierRun, type EarlierRun } from './earlier-run.ts';

const earlier: EarlierRun = {
  source: 'reports/latest/report.json',
  embedded: true,
  profile: 'full',
  durationMs: 40_000,
  tests: [
    { name: 'a', state: 'passed', durationMs: 30_000 },
    { name: 'b', state: 'failed', durationMs: 10_000 },
    { name: 'c', state: 'skipped', durationMs: 0 },
  ],
};

describe('estimateFromEarlier', () => {
  it('takes the earlier run’s wall time for the same tests', () => {
    expect(estimateFromEarlier(earlier, ['a', 'b'])).toEqual({
      wallSeconds: 40,
      basis: expect.stringContaining('took 40 s for the same tests'),
    });
  });

  it('scales it by the share of test time of the tests that run now', () => {
    const big: EarlierRun = {
      ...earlier,
      tests: Array.from({ length: 10 }, (_, i) => ({ name: `t${i}`, state: 'passed', durationMs: 4_000 })),
    };
    expect(
      estimateFromEarlier(
        big,
        big.tests.slice(0, 9).map((t) => t.name),
      )?.wallSeconds,
    ).toBe(36);
  });

  it('goes by nothing when the earlier run missed more than a tenth of the tests', () => {
    expect(estimateFromEarlier(earlier, ['a', 'c'])).toBeUndefined();
    expect(estimateFromEarlier(earlier, ['x'])).toBeUndefined();
  });
});

describe('readEarlierRun', () => {
  it('reads the first report of the same kind of target and profile, and passes over others and interrupted runs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'earlier-run-'));
    try {
      const report = (o: Record<string, unknown>) =>
        JSON.stringify({ target: { embedded: true }, profile: 'full', durationMs: 40_000, tests: earlier.tests, ...o });
      await mkdir(join(dir, 'latest'));
      await writeFile(join(dir, 'latest', 'report.json'), report({ profile: 'quick' }));
      await writeFile(
        join(dir, 'interrupted.json'),
        report({ interrupted: { reason: 'SIGINT', at: '2026-11-24T00:00:00Z' } }),
      );
      await writeFile(join(dir, 'reference.json'), report({}));
      const files = [
        join(dir, 'missing.json'),
        join(dir, 'latest', 'report.json'),
        join(dir, 'interrupted.json'),
        join(dir, 'reference.json'),
      ];
      expect((await readEarlierRun(files, true, 'full'))?.source).toMatch(/reference\.json$/);
      expect((await readEarlierRun(files, true, 'quick'))?.source).toMatch(/latest\/report\.json$/);
      expect(await readEarlierRun(files, false, 'full')).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('looks in the latest run under the report root, then the reference run', () => {
    expect(earlierRunCandidates('/r', '/pkg')).toEqual(['/r/latest/report.json', '/pkg/reports/reference/report.json']);
  });
});
