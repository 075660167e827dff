/**
 * What the proxy does with the traffic it forwards: the passive judge reads the server's side, the
 * client grader the client's, from the same exchanges. Their reports are served live on
 * `/_proxy/report` and `/_proxy/client-grade`, and written on shutdown in a run's layout
 * (`<dir>/<time>/report.{json,md,html}`, `junit.xml`, the client grade beside them, and `latest/`),
 * so `compare` reads them as it reads a run's.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClientGrade } from '../grade/grade.ts';
import { TrafficGrader } from '../grade/traffic-grader.ts';
import { gradeFileNames, gradeFormats, writeGrade, type GradeFormat } from '../grade/write-grade.ts';
import type { Report } from '../report/model.ts';
import { writeReport } from '../report/write-report.ts';
import { PassiveJudge } from '../traffic/passive-judge.ts';
import type { ExchangeObserver } from './observer.ts';
import type { ProxyReports, ReportFormat } from './report-route.ts';

export interface LiveJudgementOptions {
  /** The API's base path on the upstream (default `/api/v1`). */
  readonly basePath?: string;
  /** The upstream's origin, named as the report's target. */
  readonly upstream: string;
}

export interface LiveJudgement {
  readonly observers: readonly ExchangeObserver[];
  readonly reports: ProxyReports;
  /** The report as of now; `final` when the traffic is over (the proxy stops). */
  report(final: boolean): Report;
  grade(): ClientGrade;
}

/** A passive judge and a client grader, fed the same exchanges. */
export function liveJudgement(options: LiveJudgementOptions): LiveJudgement {
  const judge = new PassiveJudge({ ...(options.basePath !== undefined && { basePath: options.basePath }) });
  const grader = new TrafficGrader({ clock: { now: () => Date.now() } });
  const report = (final: boolean) => judge.report({ target: options.upstream, final }, grader.grade());
  const gradeIn = (format: ReportFormat) => writeGrade(grader.grade(), format as GradeFormat);
  return {
    observers: [judge, grader],
    reports: { server: () => report(false), clients: gradeIn },
    report,
    grade: () => grader.grade(),
  };
}

/** Writes the final report and the client grade under `root`, as a run's report dir; returns the run's dir. */
export async function writeFinalReports(live: LiveJudgement, root: string): Promise<string> {
  const written = await writeReport(live.report(true), { root });
  const grade = live.grade();
  for (const dir of [written.dir, written.latest]) {
    for (const format of gradeFormats) await writeFile(join(dir, gradeFileNames[format]), writeGrade(grade, format));
  }
  return written.dir;
}
