/** Section 4 of reports/bench/bench.md: what a conformance run costs, and the plan against the run. */
import type { EmbeddedCli, EmbeddedRun, PlanFigures } from './conformance-cost.ts';
import { embeddedRunsOf, runsOf } from './embedded-runs.ts';
import { errorPercent, fmt, fmtSpread, seconds } from './markdown-format.ts';
import type { BenchReport, EmbeddedRuns, Failed } from './report.ts';
import { hasError } from './report.ts';
import { pairedRatios, spread } from './spread.ts';

/** How bench.md names each CLI of the embedded run. */
const cliText: Record<EmbeddedCli, string> = {
  compiled:
    "the installed package's CLI (dist/cli/main.js, as `npx tryon-conformance run` runs it; the goal's figure, the same basis as the server figures)",
  sources:
    'the CLI from its TypeScript sources through tsx (bin/tryon-conformance.js, as `npm start` runs it in a clone)',
};

const planCell = (text: string | undefined, s: number | undefined) => (s === undefined ? '–' : (text ?? seconds(s)));

export function costSection(c: BenchReport['conformance']): string[] {
  const out = ['## 4. The cost of a conformance run', ''];
  const e: EmbeddedRuns | Failed = hasError(c.embedded) ? c.embedded : embeddedRunsOf(c.embedded);
  const ep = c.embeddedPlan;
  const rp = c.remotePlan;
  const rr = c.remoteRun;
  const planRow = (profile: string, p: PlanFigures) =>
    p.error
      ? `| ${profile} | plan: \`${redact(p.command)}\` | failed: ${p.error.replace(/\n/g, ' ').slice(0, 200)} | | | |`
      : `| ${profile} | plan: \`${redact(p.command)}\` | ${fmt(p.toRun)} of ${fmt(p.tests)} to run | ≤ ${fmt(p.credits)} | ${fmt(p.starts)} / ${fmt(p.polls)} / ${fmt(p.uploads)} | least ${planCell(p.leastWallText, p.leastWallSeconds)}; bound ${planCell(p.wallBoundText, p.wallBoundSeconds)} |`;
  out.push('| Profile | What | Tests | Credits | Starts / polls / uploads | Wall time |', '|---|---|---|--:|---|--:|');
  out.push(planRow('Embedded (full, test control)', ep));
  if (hasError(e)) out.push(`| Embedded (full, test control) | real run | failed: ${e.error} | | | |`);
  else
    for (const run of e.runs) {
      const t = run.tests;
      const n = e.runs.filter((r) => r.cli === run.cli).indexOf(run) + 1;
      out.push(
        `| Embedded (full, test control) | real run ${n}, ${run.cli}${run.collection === undefined ? '' : run.collection === 'kept' ? ', plan from the kept collection' : ', plan from a fresh collection'}: \`${run.command}\` | ${t ? `${t.passed} passed, ${t.failed} failed, ${t.inconclusive ?? 0} inconclusive, ${t.skipped} skipped (${run.outcome ?? '?'})` : '–'}${run.note ? `; ${run.note}` : ''} | ${creditsText(run)} (≤ ${fmt(run.declaredCost?.credits)} declared) | ${fmt(run.declaredCost?.starts)} / ${fmt(run.declaredCost?.polls)} / ${fmt(run.declaredCost?.uploads)} declared | **${seconds(run.wallSeconds)}** (suite ${seconds(run.reportDurationSeconds)}) |`,
      );
    }
  out.push(planRow('Remote (quick, no test control, documented limits)', rp));
  out.push(
    rr.ran
      ? `| Remote (quick, no test control, documented limits) | real run: \`${rr.command}\` (reference server without test control, default limits) | ${fmt(rr.passed)} passed, ${fmt(rr.failed)} failed, ${fmt(rr.skipped)} skipped | **${fmt(rr.creditsSpent)}** spent of ${fmt(rr.creditBudget)} (GET /account) | – | **${seconds(rr.wallSeconds)}** (suite ${seconds(rr.reportedSeconds)}) |`
      : `| Remote (quick, no test control, documented limits) | real run | not run: ${rr.note ?? 'no result'} | | | |`,
  );
  if (!hasError(e)) out.push('', ...embeddedWall(e));
  out.push(
    '',
    'Plan figures come from `--plan`, which sends nothing: the credit bound is the sum of what the tests to run declare they may spend; the least wall time is what the documented limits (12 starts/min, 60 polls/min, 30 uploads/min) allow for the planned requests; the bound is where the run stops. ' +
      'An embedded run spends on accounts made through test control, one or more per test; report.json says whether it could count them. ' +
      'The real run without test control ran in the background while benchmarks 1–3 ran (it waits on the rate limits and uses about 2 % of a core), against its own reference server with test control off.',
    '',
    ...plannedVsActual(c),
  );
  return out;
}

/** Spawn to exit of the embedded full run by each CLI, and the sources' time per compiled one, pair by pair. */
function embeddedWall(e: EmbeddedRuns): string[] {
  const out = [
    'Embedded full run, spawn to exit, by two CLIs interleaved (compiled, sources, compiled, …) with the same seed and flags:',
    '',
  ];
  for (const cli of ['compiled', 'sources'] as const) {
    const r = e[cli];
    const n = r.wallSeconds?.n ?? 0;
    out.push(
      r.wallSeconds
        ? `- **${cli}**, ${cliText[cli]}: \`${r.command}\` — **${fmtSpread(r.wallSeconds, 1, ' s')}** over ${n} run${n === 1 ? '' : 's'}; the suite's own duration ${fmtSpread(r.suiteSeconds, 1, ' s')}.`
        : `- **${cli}**, ${cliText[cli]}: \`${r.command}\` — ${r.note ?? 'no run'}.`,
    );
  }
  // Round i of each CLI ran back to back, so their ratio is taken per round, before its median.
  const perPair = spread(
    pairedRatios(
      runsOf(e, 'sources').map((r) => (r.exitCode === 0 ? r.wallSeconds : Number.NaN)),
      runsOf(e, 'compiled').map((r) => (r.exitCode === 0 ? r.wallSeconds : Number.NaN)),
    ),
    2,
  );
  if (perPair)
    out.push(
      `- From the sources the run took ${fmtSpread(perPair, 2, '×')} the compiled run's time, pair by pair (${perPair.n} pair${perPair.n === 1 ? '' : 's'} that both exited 0).`,
    );
  if (e.runs.some((r) => r.collection !== undefined)) {
    const times = (cli: EmbeddedCli, which: 'collected' | 'kept') =>
      runsOf(e, cli)
        .filter((r) => r.collection === which && r.exitCode === 0)
        .map((r) => seconds(r.wallSeconds))
        .join(', ') || 'none';
    out.push(
      `- The plan's collection of the suite is kept by content for runs with test control (src/run/collection-cache.ts); the bench starts with none, so each CLI's first run collects it and the runs after plan from it. Compiled: collected ${times('compiled', 'collected')}; kept ${times('compiled', 'kept')}. Sources: collected ${times('sources', 'collected')}; kept ${times('sources', 'kept')}.`,
    );
  }
  out.push(
    '',
    'The goals table judges the compiled run (the headline, as the installed package runs it, like the server figures) and shows the run from the sources in a row of its own.',
  );
  return out;
}

/** The plan's estimate and bound beside what the run then did, for credits and wall time. */
function plannedVsActual(c: BenchReport['conformance']): string[] {
  const e: EmbeddedRuns | Failed = hasError(c.embedded) ? c.embedded : embeddedRunsOf(c.embedded);
  const rr = c.remoteRun;
  const ep = c.embeddedPlan;
  const rp = c.remotePlan;
  // The run's own count (report.json's cost) first, else what its last line printed.
  const counted = (r: EmbeddedRun) =>
    r.reportCost ? (r.reportCost.actual.credits ?? Number.NaN) : (r.creditsSpent ?? Number.NaN);
  const embeddedCredits = hasError(e) ? undefined : spread(e.runs.map(counted), 0);
  // The estimate comes from an earlier run's report made from the sources (reports/reference, by
  // `npm run report:reference`, tsx), so it is compared with the runs from the sources.
  const embeddedSuite = hasError(e) ? undefined : e.sources.suiteSeconds;
  const compiledSuite = hasError(e) ? undefined : e.compiled.suiteSeconds;
  const several = (s: { n: number } | undefined) => (s && s.n > 1 ? ` (median of ${s.n})` : '');
  type Row = {
    run: string;
    figure: string;
    estimate: number | undefined;
    estimateText: string;
    bound: number | undefined;
    boundText: string;
    actual: number | undefined;
    actualText: string;
  };
  const rows: Row[] = [
    {
      run: 'Embedded full',
      figure: 'credits (every run, both CLIs)',
      estimate: ep.creditsEstimate,
      estimateText: fmt(ep.creditsEstimate),
      bound: ep.credits,
      boundText: `≤ ${fmt(ep.credits)}`,
      actual: embeddedCredits?.median,
      actualText: `${fmt(embeddedCredits?.median)}${several(embeddedCredits)}`,
    },
    {
      run: 'Embedded full',
      figure: 'wall time (the suite: first file to report), runs from the sources',
      estimate: ep.wallEstimateSeconds,
      estimateText: seconds(ep.wallEstimateSeconds),
      bound: ep.wallBoundSeconds,
      boundText: seconds(ep.wallBoundSeconds),
      actual: embeddedSuite?.median,
      actualText: `${seconds(embeddedSuite?.median)}${several(embeddedSuite)}`,
    },
    {
      run: 'Remote quick',
      figure: 'credits',
      estimate: rp.creditsEstimate,
      estimateText: fmt(rp.creditsEstimate),
      bound: rp.credits,
      boundText: `≤ ${fmt(rp.credits)}`,
      actual: rr.creditsSpent,
      actualText: fmt(rr.creditsSpent),
    },
    {
      run: 'Remote quick',
      figure: 'wall time (the suite, as the run reports it)',
      estimate: rp.wallEstimateSeconds,
      estimateText: seconds(rp.wallEstimateSeconds),
      bound: rp.wallBoundSeconds,
      boundText: seconds(rp.wallBoundSeconds),
      actual: rr.reportedSeconds,
      actualText: seconds(rr.reportedSeconds),
    },
  ];
  const out = [
    '### Planned vs actual',
    '',
    "The plan's estimate and its bound (`--plan`) beside what the run then did. Estimate error = (estimate − actual) ÷ actual; the issue's aim is within ±10 %. " +
      "The wall time compared is the suite's own (from its first test file to its report, as report.json's durationMs), which is what the estimate estimates; spawn to exit is in the table above.",
    '',
    '| Run | Figure | Estimate | Bound | Actual | Estimate error | Within 10 % | Actual of the bound |',
    '|---|---|--:|--:|--:|--:|---|--:|',
  ];
  for (const r of rows) {
    const err =
      r.estimate !== undefined && r.actual !== undefined && r.actual !== 0
        ? Math.abs((r.estimate - r.actual) / r.actual)
        : undefined;
    out.push(
      `| ${r.run} | ${r.figure} | ${r.estimateText} | ${r.boundText} | ${r.actualText} | ${errorPercent(r.estimate, r.actual)} | ${err === undefined ? '–' : err <= 0.1 ? 'yes' : '**no**'} | ${r.actual === undefined || !r.bound ? '–' : `${fmt((r.actual / r.bound) * 100, 1)} %`} |`,
    );
  }
  out.push('');
  for (const [name, p] of [
    ['embedded', ep],
    ['remote', rp],
  ] as const) {
    if (p.estimateBasis)
      out.push(`- The ${name} estimate assumed: ${p.estimateBasis.replace(/\/[^\s)]*\/reports\//g, 'reports/')}.`);
    else if (p.creditsEstimate === undefined) out.push(`- \`--plan\` printed no estimate for the ${name} run.`);
  }
  if (!hasError(e) && ep.wallEstimateSeconds !== undefined)
    out.push(
      `- The embedded wall-time estimate is compared with the runs from the sources, since it comes from an earlier run's report made from the sources (reports/reference/report.json, by \`npm run report:reference\`, which runs \`tsx src/cli/main.ts\`). ` +
        (compiledSuite
          ? `The compiled runs' suite took ${fmtSpread(compiledSuite, 1, ' s')}; the estimate's error against their median would be ${errorPercent(ep.wallEstimateSeconds, compiledSuite.median)}.`
          : 'No compiled run to set beside it.'),
    );
  const ownRun = hasError(e)
    ? undefined
    : [...runsOf(e, 'sources'), ...runsOf(e, 'compiled')].find((r) => r.reportCost);
  const own = ownRun?.reportCost;
  if (ownRun && own)
    out.push(
      `- The embedded run's own report.json (${ownRun.cli === 'sources' ? 'the first run from the sources' : 'the first compiled run'}; its plan made as it started) says: estimate ${fmt(own.planned.estimate.credits)} credits, ${seconds(own.planned.estimate.wallSeconds)}; actual ${own.actual.credits === null ? `credits ${own.actual.creditsCounted}` : `${fmt(own.actual.credits)} credits (${own.actual.creditsCounted})`}, ${seconds(own.actual.wallSeconds)}; error ${own.errorPercent.credits === null ? '–' : `${own.errorPercent.credits} %`} and ${own.errorPercent.wallSeconds === null ? '–' : `${own.errorPercent.wallSeconds} %`}.`,
    );
  if (rr.plannedLine)
    out.push(`- The remote run's own plan, made as it started (the same estimator), printed: "${rr.plannedLine}".`);
  if (!rr.ran) out.push(`- The remote run did not run here (${rr.note ?? 'no result'}), so it has no actual figures.`);
  out.push('');
  return out;
}

/** What an embedded run spent as report.json counts it (with test control it may not count), else its last line. */
function creditsText(run: EmbeddedRun): string {
  if (run.reportCost)
    return run.reportCost.actual.credits === null ? 'not counted' : `**${fmt(run.reportCost.actual.credits)}** spent`;
  return run.creditsSpent === undefined ? '–' : `${fmt(run.creditsSpent)} on its last line`;
}

const redact = (command: string) => command.replace(/vto_live_\w+/g, 'vto_live_…');
