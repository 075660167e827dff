/**
 * Both halves of a judgement of traffic, one code path for the live proxy and for `judge FILE`: the
 * passive judge (the server's side) and the client grader (the client's side) fed the same exchanges,
 * one report with the client grade as its second half, and the files written in a run's layout
 * (report.{json,md,html}, junit.xml, the client grade beside them, and latest/), so compare reads them.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GradeClock } from '../grade/call-log.ts';
import type { ClientGrade } from '../grade/grade.ts';
import { TrafficGrader } from '../grade/traffic-grader.ts';
import { gradeFileNames, gradeFormats, writeGrade } from '../grade/write-grade.ts';
import type { Report } from '../report/model.ts';
import { type WrittenReport, writeReport } from '../report/write-report.ts';
import { PassiveJudge, type PassiveJudgeOptions } from './passive-judge.ts';
import type { PassiveReportInfo } from './passive-report.ts';
import type { TrafficExchange } from './traffic-exchange.ts';

export interface TrafficJudgementOptions extends PassiveJudgeOptions {
  /** When the client grade is made: a live proxy's clock; by default the end of the latest exchange seen. */
  readonly clock?: GradeClock;
}

/** A passive judge and a client grader over the same exchanges. */
export class TrafficJudgement {
  readonly judge: PassiveJudge;
  readonly grader: TrafficGrader;

  constructor(options: TrafficJudgementOptions = {}) {
    const { clock, ...judgeOptions } = options;
    this.judge = new PassiveJudge(judgeOptions);
    this.grader = new TrafficGrader(clock !== undefined ? { clock } : {});
  }

  /** Takes one exchange into both halves. */
  observe(te: TrafficExchange): void {
    this.judge.observe(te);
    this.grader.observe(te);
  }

  /** The client grade as of the grader's clock. */
  grade(): ClientGrade {
    return this.grader.grade();
  }

  /** The server's verdicts with the client grade (made once, returned too) as the report's second half. */
  reportWithGrade(info: PassiveReportInfo = {}): { readonly report: Report; readonly grade: ClientGrade } {
    const grade = this.grader.grade();
    return { report: this.judge.report(info, grade), grade };
  }

  /** The report as {@link reportWithGrade} makes it. */
  report(info: PassiveReportInfo = {}): Report {
    return this.reportWithGrade(info).report;
  }
}

/** Writes the report of `judgement` and its client grade under `root`, as a run's report dir. */
export async function writeJudgedReports(
  judgement: TrafficJudgement,
  info: PassiveReportInfo,
  root: string,
): Promise<{ readonly written: WrittenReport; readonly report: Report; readonly grade: ClientGrade }> {
  const { report, grade } = judgement.reportWithGrade(info);
  const written = await writeReport(report, { root });
  for (const dir of [written.dir, written.latest]) {
    for (const format of gradeFormats) await writeFile(join(dir, gradeFileNames[format]), writeGrade(grade, format));
  }
  return { written, report, grade };
}
