import { describe, expect, it } from 'vitest';
import type { LearnedFact } from '../suite/run-facts.ts';
import { fakeInfo, fakeModule, fakeTest } from './fake-run.ts';
import { learnedHtml, learnedLines, learnedMarkdown } from './learned.ts';
import { buildReport } from './model.ts';
import { reportProblems } from './read-report.ts';
import { renderJson } from './write-json.ts';
import { renderMarkdown } from './write-markdown.ts';

const pending: LearnedFact = {
  fact: 'tryons-stay-pending',
  statement: 'try-ons on this target stayed pending for the whole give-up time',
  seen: 'try-on ton_<b>1</b> | x was still pending after 150 s of polling',
  test: 'sync > answers 202',
};

/** Two tests: the first learned the fact; the second ended on it (and says it learned it again: counted once). */
function runThatLearned() {
  return buildReport(
    [
      fakeModule('src/suite/sync.suite.ts', [
        fakeTest({
          describe: 'sync',
          name: 'answers 202',
          state: 'passed',
          requirements: [],
          meta: { learned: [pending] },
        }),
        fakeTest({
          describe: 'credits',
          name: 'refunds',
          state: 'failed',
          requirements: ['SVC-FAILED-TRYON-REFUNDED'],
          meta: { inconclusive: 'later', learned: [{ ...pending, test: 'credits > refunds' }] },
        }),
      ]),
    ],
    fakeInfo,
  );
}

describe('what the run learned', () => {
  it('lists each fact once, as the test that first learned it saw it, and the JSON keeps to the schema', () => {
    const report = runThatLearned();
    expect(report.learned).toEqual([pending]);
    expect(reportProblems(JSON.parse(renderJson(report)))).toEqual([]);
  });

  it('is absent from a run that learned nothing, so such a report is as it was', () => {
    const report = buildReport([], fakeInfo);
    expect('learned' in report).toBe(false);
    expect(renderMarkdown(report)).not.toContain('What the run learned');
  });

  it('is a short section of report.md with the fact, what showed it and the test, escaped for a table', () => {
    const lines = learnedMarkdown(runThatLearned());
    expect(lines[0]).toBe('### What the run learned (1)');
    const row = lines.find((l) => l.startsWith('| try-ons on this target'));
    expect(row).toContain('answers 202');
    expect(row).not.toContain('<b>');
    expect(row).toContain('\\|');
  });

  it('is one line per fact on the terminal, with control characters of the target taken out', () => {
    const report = { learned: [{ ...pending, seen: 'try-on \u001b[31mred\u001b[0m\nnext line' }] };
    const [line, ...rest] = learnedLines(report);
    expect(rest).toEqual([]);
    expect(line).toMatch(/^Learned: try-ons on this target stayed pending .*by "sync > answers 202"\)$/);
    expect(line).not.toMatch(/[\u0000-\u001f]/);
  });

  it('is a section of report.html, escaped, and none in a run that learned nothing', () => {
    const section = learnedHtml(runThatLearned());
    expect(section).toContain('<h2>What the run learned</h2>');
    expect(section).toContain('ton_&lt;b&gt;1&lt;/b&gt;');
    expect(section).not.toContain('<b>');
    expect(learnedHtml(buildReport([], fakeInfo))).toBe('');
  });
});
