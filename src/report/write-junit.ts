/**
 * junit.xml: one `<testcase>` per requirement, one `<testsuite>` per spec section (classname = section), so
 * CI lists requirements, not vitest tests. A failing requirement has one `<failure>` with every failure and
 * its evidence in CDATA; any other that did not pass is `<skipped>` with the reason. Inconclusive is
 * `<skipped>` too: nothing was found against the target, and nobody judged it green. What the target chose
 * on an implementation-defined point goes into the `<system-out>` of the point's requirement.
 */
import { cdata, escapeXmlAttr } from '../shared/escape.ts';
import { headline } from './failures.ts';
import { bySection, choiceValues, verdictLabel } from './format.ts';
import type { ChoiceResult, Failure, Report, RequirementResult } from './model.ts';

/** The report as JUnit XML (the subset Jenkins, GitLab and GitHub test reporters read). */
export function renderJunit(report: Report): string {
  const secondsOf = durations(report);
  const properties = [
    ['target', report.target.baseUrl],
    ['embedded', String(report.target.embedded)],
    ['seed', String(report.seed)],
    ['profile', report.profile],
    ['openapiSha256', report.openapiSha256],
    ['tool', `${report.tool.name} ${report.tool.version}`],
    ...(report.interrupted === undefined
      ? []
      : [['interrupted', `${report.interrupted.reason} at ${report.interrupted.at}`]]),
  ];
  const suites = bySection(report.requirements).map((group) => {
    const count = (pick: (r: RequirementResult) => boolean): number => group.requirements.filter(pick).length;
    const time = group.requirements.reduce((n, r) => n + secondsOf(r), 0);
    return [
      `  <testsuite ${attrs({
        name: group.section,
        tests: group.requirements.length,
        failures: count((r) => r.verdict === 'fail' && r.expected === undefined),
        errors: 0,
        skipped: count((r) => (r.verdict !== 'fail' || r.expected !== undefined) && r.verdict !== 'pass'),
        time: seconds(time),
        timestamp: report.startedAt,
      })}>`,
      '    <properties>',
      ...properties.map(([name, value]) => `      <property ${attrs({ name: name ?? '', value: value ?? '' })}/>`),
      '    </properties>',
      ...group.requirements.map((r) =>
        testcase(
          r,
          secondsOf(r),
          report.choices.filter((c) => c.requirement === r.id),
        ),
      ),
      '  </testsuite>',
    ].join('\n');
  });
  const s = report.summary.requirements;
  const expected = report.requirements.filter((r) => r.verdict === 'fail' && r.expected !== undefined).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attrs({
      name: `${report.tool.name} conformance`,
      tests: s.total,
      failures: s.fail - expected,
      errors: report.errors.length,
      skipped: s.inconclusive + s.skip + s.notObservable + s.notCovered + expected,
      time: seconds(report.durationMs / 1000),
      timestamp: report.startedAt,
    })}>`,
    ...suites,
    ...report.errors.map((e) => runError(e.file ?? 'run', e.message)),
    '</testsuites>',
    '',
  ].join('\n');
}

function testcase(r: RequirementResult, time: number, choices: readonly ChoiceResult[]): string {
  const open = `    <testcase ${attrs({ classname: r.section, name: r.id, time: seconds(time) })}>`;
  const out = `      <system-out>${cdata(systemOut(r, choices))}</system-out>`;
  switch (r.verdict) {
    case 'pass':
      return [open, out, '    </testcase>'].join('\n');
    case 'fail': {
      // A failure the run's expectations file names is known: skipped with its reason, the failure in the output.
      if (r.expected !== undefined) return expectedFailure(open, out, r);
      const first = r.failures[0];
      const message = `${r.level}: ${first === undefined ? 'failed' : headline(first)}${r.failures.length > 1 ? ` (+${r.failures.length - 1} more)` : ''}`;
      return [
        open,
        `      <failure ${attrs({ message, type: r.level })}>${cdata(failureText(r))}</failure>`,
        out,
        '    </testcase>',
      ].join('\n');
    }
    default:
      return [
        open,
        `      <skipped ${attrs({ message: `${verdictLabel[r.verdict]}: ${r.reason ?? ''}` })}/>`,
        out,
        '    </testcase>',
      ].join('\n');
  }
}

function expectedFailure(open: string, out: string, r: RequirementResult): string {
  const message = `expected failure (--expect): ${r.expected?.reason ?? ''}`;
  const text = `${failureText(r)}\n\n${message}`;
  return [
    open,
    `      <skipped ${attrs({ message })}/>`,
    out,
    `      <system-err>${cdata(text)}</system-err>`,
    '    </testcase>',
  ].join('\n');
}

function systemOut(r: RequirementResult, choices: readonly ChoiceResult[]): string {
  return [
    `${r.id} (${r.level}${r.implementationDefined ? ', implementation-defined' : ''}): ${r.statement}`,
    `Section: ${r.section}${r.subsection === undefined ? '' : ` › ${r.subsection}`}`,
    `Verdict: ${verdictLabel[r.verdict]}${r.reason === undefined ? '' : ` (${r.reason})`}`,
    ...(r.tests.length > 0 ? ['Tests:', ...r.tests.map((t) => `  - ${t}`)] : []),
    ...(r.observations.length > 0
      ? ['Observations:', ...r.observations.map((o) => `  - [${o.type}] ${o.message} (${o.test})`)]
      : []),
    ...(choices.length > 0
      ? [
          'Implementation-defined points (what this target chose; never judged):',
          ...choices.map((c) => `  - ${c.point}: ${choiceValues(c)}`),
        ]
      : []),
  ].join('\n');
}

function failureText(r: RequirementResult): string {
  return [
    `${r.id} (${r.level}): ${r.statement}`,
    ...r.failures.map((f, i) => describeFailure(f, i + 1, r.failures.length)),
  ].join('\n\n');
}

function describeFailure(f: Failure, n: number, of: number): string {
  const lines = [`Failure ${n} of ${of} — test: ${f.test}`, f.message];
  if (f.check !== undefined)
    lines.push(`Check: ${f.check}${f.occurrences === undefined ? '' : ` (on ${f.occurrences} exchanges)`}`);
  if (f.expected !== undefined) lines.push(`Expected: ${f.expected}`);
  if (f.received !== undefined) lines.push(`Received: ${f.received}`);
  if (f.counterexample !== undefined) lines.push('Counterexample:', f.counterexample);
  lines.push(`Replay: ${f.replay.command}`);
  const last = f.evidence.at(-1);
  if (last !== undefined) {
    lines.push(
      `Evidence (last of ${f.evidence.length + (f.evidenceOmitted ?? 0)} exchanges):`,
      last.curl,
      `→ ${last.status ?? 'no response'}`,
      last.body,
    );
  }
  return lines.join('\n');
}

function runError(file: string, message: string): string {
  return [
    `  <testsuite ${attrs({ name: `run error: ${file}`, tests: 1, failures: 0, errors: 1, skipped: 0 })}>`,
    `    <testcase ${attrs({ classname: 'run errors', name: file })}>`,
    `      <error ${attrs({ message: message.split('\n')[0] ?? 'error', type: 'run error' })}>${cdata(message)}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ].join('\n');
}

/** Seconds spent per requirement: the time of its covering tests (a test covering three counts for each). */
function durations(report: Report): (r: RequirementResult) => number {
  const ms = new Map(report.tests.map((t) => [t.name, t.durationMs]));
  return (r) => r.tests.reduce((n, t) => n + (ms.get(t) ?? 0), 0) / 1000;
}

function seconds(s: number): string {
  return s.toFixed(3);
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}="${escapeXmlAttr(String(v))}"`)
    .join(' ');
}
