import { describe, expect, it } from 'vitest';
import { requirement, type RequirementId } from '../contract/requirements.ts';
import type { AlternativeSeen } from '../suite/alternatives.ts';
import { alternativesSeen, partialText, verdictText } from './alternatives.ts';
import { fakeInfo, fakeModule, fakeTest } from './fake-run.ts';
import { buildReport } from './model.ts';
import { reportProblems } from './read-report.ts';
import { renderHtml } from './write-html.ts';
import { renderJson } from './write-json.ts';
import { renderMarkdown } from './write-markdown.ts';
import { exitStatusOf } from './summary.ts';

const seen = (
  requirement: RequirementId,
  dimension: AlternativeSeen['dimension'],
  alternative: string,
  count = 1,
): AlternativeSeen => ({ requirement, dimension, alternative, count });
const ids: RequirementId[] = [
  'RES-RESULT-URL-ON-SUCCESS',
  'SVC-RESULT-AI-LABEL',
  'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED',
];
const catalogue = ids.map(requirement);

/**
 * A run of two tests: results of both formats for one rule, of JPEG only for the label, a state rule that
 * failed on success only.
 */
function run(labelPasses = true) {
  const tests = [
    fakeTest({
      name: 'results',
      state: 'passed',
      requirements: ['RES-RESULT-URL-ON-SUCCESS'],
      meta: {
        alternatives: [
          seen('RES-RESULT-URL-ON-SUCCESS', 'result format', 'PNG', 9),
          seen('RES-RESULT-URL-ON-SUCCESS', 'result format', 'JPEG', 14),
        ],
      },
    }),
    fakeTest({
      name: 'label',
      state: labelPasses ? 'passed' : 'failed',
      requirements: ['SVC-RESULT-AI-LABEL'],
      meta: {
        alternatives: [seen('SVC-RESULT-AI-LABEL', 'result format', 'JPEG', 2)],
        ...(!labelPasses && { broken: [{ requirement: 'SVC-RESULT-AI-LABEL', message: 'no label' }] }),
      },
    }),
    fakeTest({
      name: 'machine',
      state: 'passed',
      requirements: ['STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED'],
      meta: {
        alternatives: [
          seen('STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED', 'final state', 'success', 3),
          seen('STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED', 'endpoint', 'POST /tryons', 1),
          seen('STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED', 'endpoint', 'POST /tryons/sync', 2),
        ],
      },
    }),
  ];
  return buildReport([fakeModule('src/suite/x.suite.ts', tests)], fakeInfo, catalogue);
}
const byId = (report: ReturnType<typeof run>, id: RequirementId) => report.requirements.find((r) => r.id === id)!;

describe('alternatives seen per requirement', () => {
  it('counts each alternative over the tests, in the spec order, with the ones never seen', () => {
    const report = run();
    expect(byId(report, 'RES-RESULT-URL-ON-SUCCESS').alternatives).toEqual([
      {
        dimension: 'result format',
        seen: [
          { alternative: 'JPEG', count: 14 },
          { alternative: 'PNG', count: 9 },
        ],
        unseen: [],
      },
    ]);
    expect(byId(report, 'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED').alternatives).toEqual([
      {
        dimension: 'endpoint',
        seen: [
          { alternative: 'POST /tryons', count: 1 },
          { alternative: 'POST /tryons/sync', count: 2 },
        ],
        unseen: [],
      },
      { dimension: 'final state', seen: [{ alternative: 'success', count: 3 }], unseen: ['failed'] },
    ]);
  });

  it.each([
    ['both formats seen', 'RES-RESULT-URL-ON-SUCCESS', undefined, 'pass'],
    [
      'JPEG only',
      'SVC-RESULT-AI-LABEL',
      'partial',
      'pass (partially exercised: only JPEG seen (result format; never PNG))',
    ],
    [
      'one dimension of two short',
      'STATE-TERMINAL-TRANSITIONS-IMPL-DEFINED',
      'partial',
      'pass (partially exercised: only success seen (final state; never failed))',
    ],
  ] as const)('%s: coverage %s, shown as %s', (_name, id, coverage, shown) => {
    const r = byId(run(), id);
    expect(r.verdict).toBe('pass');
    expect(r.coverage).toBe(coverage);
    expect(verdictText(r, 'pass')).toBe(shown);
  });

  it('marks only passes partial: a failure on the one alternative seen stays a plain fail', () => {
    const r = byId(run(false), 'SVC-RESULT-AI-LABEL');
    expect(r.verdict).toBe('fail');
    expect(r.coverage).toBeUndefined();
    expect(partialText(r)).toBe('only JPEG seen (result format; never PNG)');
  });

  it('changes no count and no exit status, and the JSON keeps to report.schema.json', () => {
    const report = run();
    expect(report.summary.requirements.pass).toBe(3);
    expect(report.summary.outcome).toBe('pass');
    expect(exitStatusOf(report.summary.outcome)).toBe(0);
    expect(reportProblems(JSON.parse(renderJson(report)))).toEqual([]);
  });

  it('lists the alternatives in Markdown and HTML', () => {
    const report = run();
    const md = renderMarkdown(report);
    expect(md).toContain('### Alternatives exercised (3)');
    expect(md).toContain('| `RES-RESULT-URL-ON-SUCCESS` | result format: JPEG 14, PNG 9 | — | ✅ pass |');
    expect(md).toContain(
      '| `SVC-RESULT-AI-LABEL` | result format: JPEG 2 | result format: PNG | ✅ pass (partially exercised: only JPEG seen (result format; never PNG)) |',
    );
    const html = renderHtml(report);
    expect(html).toContain('<section id="alternatives"');
    expect(html).toContain('result format</b>: JPEG 14, PNG 9');
  });

  it('reads nothing from tests that recorded no alternatives', () => {
    expect(alternativesSeen([]).size).toBe(0);
    expect(run().requirements.every((r) => r.alternatives !== undefined)).toBe(true);
    expect(buildReport([], fakeInfo, catalogue).requirements.some((r) => 'alternatives' in r)).toBe(false);
  });
});
