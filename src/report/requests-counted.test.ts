/** What the target counted: each worker's last counts, summed, in the report (schema-valid) and its line. */
import { describe, expect, it } from 'vitest';
import type { TaskMeta } from 'vitest';
import { fakeReport } from './fake-run.ts';
import { reportProblems } from './read-report.ts';
import { requestCountsLines, requestCountsOf } from './requests-counted.ts';
import { renderMarkdown } from './write-markdown.ts';
import { renderJson } from './write-json.ts';

const at = (worker: string, starts: number, limited: number, polls = 0): { meta: TaskMeta } => ({
  meta: {
    requestsCounted: {
      worker,
      buckets: {
        starts: { sent: starts, limited },
        polls: { sent: polls, limited: 0 },
        uploads: { sent: 1, limited: 0 },
      },
    },
  },
});

describe('requestCountsOf', () => {
  it("sums each worker's last counts, whatever order the tests settled in", () => {
    const ran = [at('1', 5, 0), at('2', 3, 0), { meta: {} }, at('1', 20, 1, 4), at('2', 2, 0), at('2', 9, 2)];
    expect(requestCountsOf(ran)).toEqual({
      starts: { sent: 29, limited: 3 },
      polls: { sent: 4, limited: 0 },
      uploads: { sent: 2, limited: 0 },
    });
  });

  it('is absent when no test counted', () => {
    expect(requestCountsOf([{ meta: {} }])).toBeUndefined();
  });

  it('is said in one line, in report.md, and the report with it stays schema-valid', () => {
    const requestCounts = requestCountsOf([at('1', 57, 1, 40)]);
    const report = { ...fakeReport(), ...(requestCounts && { requestCounts }) };
    const line = 'Requests against the rate limits: 57 starts (1 answered 429), 40 polls, 1 uploads';
    expect(requestCountsLines(report)).toEqual([line]);
    expect(renderMarkdown(report)).toContain(`\n${line}\n`);
    expect(reportProblems(JSON.parse(renderJson(report)))).toEqual([]);
    expect(requestCountsLines(fakeReport())).toEqual([]);
  });
});
