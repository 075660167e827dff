/**
 * Writes a run's report in all four formats into `reports/<ISO timestamp>/` and refreshes `reports/latest/`
 * with a copy, not a symlink: CI artifact uploaders, zip files, Windows checkouts and static hosts drop or
 * mangle symlinks, and a copy stays valid when old run directories are pruned.
 */
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { Report } from './model.ts';
import { renderHtml } from './write-html.ts';
import { renderJson } from './write-json.ts';
import { renderJunit } from './write-junit.ts';
import { renderMarkdown } from './write-markdown.ts';

export const reportFiles = {
  json: 'report.json',
  junit: 'junit.xml',
  markdown: 'report.md',
  html: 'report.html',
} as const;

export type ReportFiles = { readonly [K in keyof typeof reportFiles]: string };

export interface WrittenReport {
  /** `reports/<name>`, absolute. */
  readonly dir: string;
  /** `reports/latest`, absolute. */
  readonly latest: string;
  /** The four files in `dir`. */
  readonly files: ReportFiles;
  /** The same four files in `latest`. */
  readonly latestFiles: ReportFiles;
}

export interface WriteReportOptions {
  /** The reports directory (default `reports` under the current directory). */
  readonly root?: string;
  /** The run directory's name (default: the run's start time, safe for file names). */
  readonly name?: string;
}

/** `2025-11-22T05:37:00.000Z` → `2025-11-22T05-37-00-000Z`: sorts like the time, and every file system takes it. */
export function reportDirName(startedAt: string): string {
  return startedAt.replace(/[:.]/g, '-').replace(/[^0-9A-Za-z_-]/g, '');
}

/** Writes report.json, junit.xml, report.md and report.html, and refreshes `latest`; returns the paths. */
export async function writeReport(report: Report, options: WriteReportOptions = {}): Promise<WrittenReport> {
  const root = resolve(options.root ?? 'reports');
  const base = options.name ?? reportDirName(report.startedAt);
  if (base === 'latest' || base === '' || base.includes('/') || base.includes('\\') || base.startsWith('.')) {
    throw new Error(`writeReport: '${base}' cannot name a run directory`);
  }
  await mkdir(root, { recursive: true });
  let name = base;
  for (let n = 2; existsSync(join(root, name)); n++) name = `${base}-${n}`;
  const dir = join(root, name);
  await mkdir(dir);

  const contents: Record<keyof typeof reportFiles, string> = {
    json: renderJson(report),
    junit: renderJunit(report),
    markdown: renderMarkdown(report),
    html: renderHtml(report),
  };
  const files = filesIn(dir);
  for (const key of Object.keys(reportFiles) as Array<keyof typeof reportFiles>)
    await writeFile(files[key], contents[key], 'utf8');

  // Copy beside, then swap: `latest` is missing only between the rm and the rename.
  const latest = join(root, 'latest');
  const staging = join(root, `.latest-${process.pid}-${Date.now()}`);
  await cp(dir, staging, { recursive: true });
  await rm(latest, { recursive: true, force: true });
  await rename(staging, latest);
  return { dir, latest, files, latestFiles: filesIn(latest) };
}

function filesIn(dir: string): ReportFiles {
  return {
    json: join(dir, reportFiles.json),
    junit: join(dir, reportFiles.junit),
    markdown: join(dir, reportFiles.markdown),
    html: join(dir, reportFiles.html),
  };
}
