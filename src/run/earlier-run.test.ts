/** The estimate of a run from an earlier report of the same kind: what the same tests took then. */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  earlierRunCandidates,
  estimateFromEarlier,
  estimateFromEarlierRuns,
  readEarlierRun,
  readEarlierRuns,
  type EarlierRun,
} from './earlier-run.ts';

const earlier: EarlierRun = {
  source: 'reports/latest/report.json',
  embedded: true,
  profile: 'full',
  durationMs: 40_000,
  tests: [
    { name: 'a', state: 'passed', durationMs: 30_000 },
    { name: 'b', state: 'failed', durationMs: 10_000 },
    { name: 'c', state: 'skipped', durationMs: 0, skipReason: 'needs up to 3 credits; 0 left' },
  ],
};

/** Steps as the model plays them: a name and the seconds it expects. */
const steps = (...pairs: Array<[string, number]>) => pairs.map(([name, seconds]) => ({ name, seconds }));

describe('estimateFromEarlier', () => {
  it('takes the earlier run’s wall time for the same tests', () => {
    expect(estimateFromEarlier(earlier, steps(['a', 1], ['b', 1]))).toEqual({
      wallSeconds: 40,
      basis: expect.stringContaining('the earlier run in reports/latest/report.json: these tests as long as they took'),
    });
  });

  it('scales by the earlier run’s wall time per second of test time: start-up, files, workers side by side', () => {
    const parallel: EarlierRun = {
      ...earlier,
      durationMs: 16_000,
      tests: Array.from({ length: 10 }, (_, i) => ({ name: `t${i}`, state: 'passed', durationMs: 4_000 })),
    };
    // 40 s of test time in 16 s: nine of the tests take 36 s of test time, so 14.4 s.
    expect(
      estimateFromEarlier(parallel, steps(...parallel.tests.slice(0, 9).map((t): [string, number] => [t.name, 99])))
        ?.wallSeconds,
    ).toBe(14);
  });

  it('plays the tests it did not run, or skipped for its own budget, as the model does', () => {
    const e = estimateFromEarlier(earlier, steps(['a', 5], ['b', 5], ['c', 60], ['new', 20]));
    expect(e?.wallSeconds).toBe(120);
    expect(e?.basis).toMatch(/2 of these 4 tests as long as they took then \(the other 2 as the model plays them\)/);
  });

  it('names what the earlier run learned about the target, whose effect its durations carry', () => {
    const learned = { ...earlier, learned: ['try-ons on this target stayed pending for the whole give-up time'] };
    expect(estimateFromEarlier(learned, steps(['a', 1], ['b', 1]))?.basis).toMatch(
      /; what it learned holds for them: try-ons on this target stayed pending for the whole give-up time$/,
    );
  });

  it('counts the tests not granted credits that ran then on what was left, as long as they took', () => {
    const e = estimateFromEarlier(earlier, steps(['a', 1]), ['a', 'b', 'c', 'never']);
    expect(e?.wallSeconds).toBe(40);
    expect(e?.basis).toMatch(/these tests as long as they took then, and 1 more that ran then on credits left/);
  });

  it('keeps a skip that happens again (a capability, a fact learned) as quick as it was', () => {
    const learned: EarlierRun = {
      ...earlier,
      tests: [
        ...earlier.tests.slice(0, 2),
        { name: 'd', state: 'skipped', durationMs: 5, skipReason: 'needs scenarios: no' },
        { name: 'e', state: 'skipped', durationMs: 0, skipReason: 'not limited; reaching it takes 13 of its credits' },
      ],
    };
    expect(estimateFromEarlier(learned, steps(['a', 1], ['d', 60], ['e', 60]))?.wallSeconds).toBe(30);
  });

  it('goes by nothing when the earlier run ran under a quarter of the tests, or none', () => {
    expect(estimateFromEarlier(earlier, steps(['a', 1], ['x', 1], ['y', 1], ['z', 1], ['w', 1]))).toBeUndefined();
    expect(estimateFromEarlier(earlier, steps(['x', 1]))).toBeUndefined();
  });
});

describe('estimateFromEarlierRuns', () => {
  const took = (seconds: number, source: string): EarlierRun => ({ ...earlier, source, durationMs: seconds * 1000 });

  it('takes the median of three or more runs, so one slowed by a busy machine does not decide alone', () => {
    const runs = [took(24, 'busy'), took(16, 'quiet'), took(19, 'usual')];
    const e = estimateFromEarlierRuns(runs, steps(['a', 1], ['b', 1]));
    expect(e?.wallSeconds).toBe(19);
    expect(e?.basis).toMatch(
      /^the median of 3 earlier runs \(24 s, 16 s, 19 s, newest first\), the earlier run in usual:/,
    );
  });

  it('takes the newer of two, and nothing of none', () => {
    expect(estimateFromEarlierRuns([took(24, 'newer'), took(16, 'older')], steps(['a', 1]))?.basis).toMatch(/in newer/);
    expect(estimateFromEarlierRuns([], steps(['a', 1]))).toBeUndefined();
  });
});

describe('readEarlierRun', () => {
  const kind = { embedded: true, profile: 'full', baseUrl: 'http://127.0.0.1:1/api/v1', control: true };

  it('reads the first report of the same kind of target and profile, not others or interrupted runs', async () => {
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
      await writeFile(join(dir, 'not-json.json'), '{"target":');
      await writeFile(
        join(dir, 'reference.json'),
        report({
          learned: [{ fact: 'x', statement: 'this target answers every body with the same example' }, 7, null],
        }),
      );
      const files = [
        join(dir, 'missing.json'),
        join(dir, 'not-json.json'),
        join(dir, 'latest', 'report.json'),
        join(dir, 'interrupted.json'),
        join(dir, 'reference.json'),
      ];
      expect(await readEarlierRun(files, kind)).toMatchObject({
        source: expect.stringMatching(/reference\.json$/),
        learned: ['this target answers every body with the same example'],
      });
      expect((await readEarlierRun(files, { ...kind, profile: 'quick' }))?.source).toMatch(/latest\/report\.json$/);
      expect(await readEarlierRun(files, { ...kind, embedded: false })).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('takes a remote run only of the same base URL, with test control or without it as now', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'earlier-run-'));
    try {
      const remote = (baseUrl: string, control: boolean) =>
        JSON.stringify({
          target: { embedded: false, baseUrl },
          capabilities: { 'test-control': control },
          profile: 'full',
          durationMs: 600_000,
          tests: earlier.tests,
        });
      await writeFile(join(dir, 'other.json'), remote('http://127.0.0.1:2/api/v1', false));
      await writeFile(join(dir, 'controlled.json'), remote('http://127.0.0.1:1/api/v1', true));
      await writeFile(join(dir, 'same.json'), remote('http://127.0.0.1:1/api/v1', false));
      const files = ['other', 'controlled', 'same'].map((f) => join(dir, `${f}.json`));
      const plain = { embedded: false, profile: 'full', baseUrl: 'http://127.0.0.1:1/api/v1/', control: false };
      expect((await readEarlierRun(files, plain))?.source).toMatch(/same\.json$/);
      expect((await readEarlierRun(files, { ...plain, control: true }))?.source).toMatch(/controlled\.json$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads up to three distinct runs: the latest copy counts once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'earlier-runs-'));
    try {
      const run = (startedAt: string) =>
        JSON.stringify({ target: { embedded: true }, profile: 'full', startedAt, durationMs: 1, tests: [] });
      const names = ['latest', 'new', 'old', 'older', 'oldest'];
      const started = [
        '2026-11-27T03:00:00Z',
        '2026-11-27T03:00:00Z',
        '2026-11-27T02:00:00Z',
        '2026-11-27T01:00:00Z',
        '2026-11-27T00:00:00Z',
      ];
      for (const [i, name] of names.entries()) await writeFile(join(dir, `${name}.json`), run(started[i] ?? ''));
      const runs = await readEarlierRuns(
        names.map((n) => join(dir, `${n}.json`)),
        kind,
      );
      expect(runs.map((r) => r.source.replace(/.*\//, ''))).toEqual(['latest.json', 'old.json', 'older.json']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('looks in the latest run under the report root, its runs newest first, then the reference run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'earlier-runs-'));
    try {
      for (const run of ['2026-11-26T21-35-48-304Z', '2026-11-27T00-09-31-718Z', 'bench', 'latest'])
        await mkdir(join(dir, run));
      expect(await earlierRunCandidates(dir, '/pkg')).toEqual([
        join(dir, 'latest', 'report.json'),
        join(dir, '2026-11-27T00-09-31-718Z', 'report.json'),
        join(dir, '2026-11-26T21-35-48-304Z', 'report.json'),
        '/pkg/reports/reference/report.json',
      ]);
      expect(await earlierRunCandidates(join(dir, 'none'), '/pkg')).toEqual([
        join(dir, 'none', 'latest', 'report.json'),
        '/pkg/reports/reference/report.json',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
