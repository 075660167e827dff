/**
 * What the proxy does with the traffic it forwards: the passive judge reads the server's side, the
 * client grader the client's, from the same exchanges. Their reports are served live on
 * `/_proxy/report` and `/_proxy/client-grade`, and written on shutdown in a run's layout
 * (`<dir>/<time>/report.{json,md,html}`, `junit.xml`, the client grade beside them, and `latest/`),
 * so `compare` reads them as it reads a run's.
 */
import type { ClientGrade } from '../grade/grade.ts';
import { writeGrade, type GradeFormat } from '../grade/write-grade.ts';
import type { Report } from '../report/model.ts';
import { TrafficJudgement, writeJudgedReports } from '../traffic/traffic-judgement.ts';
import type { ExchangeObserver } from './observer.ts';
import type { ProxyReports, ReportFormat } from './report-route.ts';

export interface LiveJudgementOptions {
  /** The API's base path on the upstream (default `/api/v1`). */
  readonly basePath?: string;
  /** The upstream's origin, named as the report's target. */
  readonly upstream: string;
}

export interface LiveJudgement {
  readonly judgement: TrafficJudgement;
  /** The upstream's origin, the report's target. */
  readonly upstream: string;
  readonly observers: readonly ExchangeObserver[];
  readonly reports: ProxyReports;
  /** The report as of now; `final` when the traffic is over (the proxy stops). */
  report(final: boolean): Report;
  grade(): ClientGrade;
}

/** A passive judge and a client grader, fed the same exchanges (traffic-judgement.ts, as `judge FILE`). */
export function liveJudgement(options: LiveJudgementOptions): LiveJudgement {
  const judgement = new TrafficJudgement({
    ...(options.basePath !== undefined && { basePath: options.basePath }),
    clock: { now: () => Date.now() },
  });
  const report = (final: boolean) => judgement.report({ target: options.upstream, final });
  const gradeIn = (format: ReportFormat) => writeGrade(judgement.grade(), format as GradeFormat);
  return {
    judgement,
    upstream: options.upstream,
    // Two observers, so a fault of one costs the other nothing.
    observers: [judgement.judge, judgement.grader],
    reports: { server: () => report(false), clients: gradeIn },
    report,
    grade: () => judgement.grade(),
  };
}

/** Writes the final report and the client grade under `root`, as a run's report dir; returns the run's dir. */
export async function writeFinalReports(live: LiveJudgement, root: string): Promise<string> {
  const { written } = await writeJudgedReports(live.judgement, { target: live.upstream, final: true }, root);
  return written.dir;
}
