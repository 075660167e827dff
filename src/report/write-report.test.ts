import { lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeReport } from './fake-run.ts';
import { reportDirName, writeReport } from './write-report.ts';

describe('writeReport', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'tryon-reports-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('names the run directory after the start time, safe for any file system', () => {
    expect(reportDirName('2025-11-22T05:37:00.000Z')).toBe('2025-11-22T05-37-00-000Z');
  });

  it('writes the four files into reports/<time>/ and a copy into reports/latest/', async () => {
    const report = fakeReport();
    const written = await writeReport(report, { root });
    expect(written.dir).toBe(join(root, '2025-11-22T05-37-00-000Z'));
    expect((await readdir(written.dir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md']);
    expect((await lstat(written.latest)).isDirectory()).toBe(true);
    expect((await lstat(written.latest)).isSymbolicLink()).toBe(false);
    for (const key of ['json', 'junit', 'markdown', 'html'] as const) {
      expect(await readFile(written.latestFiles[key], 'utf8')).toBe(await readFile(written.files[key], 'utf8'));
    }
    expect(JSON.parse(await readFile(written.files.json, 'utf8'))).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('refreshes latest on the next run, keeps earlier runs, and never overwrites a run directory', async () => {
    const first = await writeReport(fakeReport(), { root });
    const second = await writeReport({ ...fakeReport(), seed: 42 }, { root });
    expect(second.dir).toBe(`${first.dir}-2`);
    expect((await readdir(root)).filter((n) => !n.startsWith('.')).sort()).toEqual([
      `2025-11-22T05-37-00-000Z`,
      `2025-11-22T05-37-00-000Z-2`,
      'latest',
    ]);
    expect(JSON.parse(await readFile(second.latestFiles.json, 'utf8')).seed).toBe(42);
    expect(JSON.parse(await readFile(first.files.json, 'utf8')).seed).toBe(1234567);
    expect((await readdir(root)).filter((n) => n.startsWith('.latest'))).toEqual([]);
  });

  it('refuses a run name that would escape the reports directory or replace latest', async () => {
    for (const name of ['latest', '../x', '.hidden', 'a/b'])
      await expect(writeReport(fakeReport(), { root, name })).rejects.toThrow('cannot name a run directory');
  });
});
