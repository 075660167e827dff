/**
 * `tryon-conformance run` against a hostile target (hostile-target.ts), which writes script, terminal
 * controls, Markdown images and links, XML breakers, shell metacharacters and 1 MB strings into every
 * string and header it answers with, points its resultUrl and a pollUrl at a canary on another
 * origin, and, in the second run, nests its JSON 200,000 levels deep. Whatever it writes, the run
 * ends with a report, fetches nothing off the target's origin, and nothing the target chose acts on
 * the terminal, in report.md or the step summary, in junit.xml, in report.html's markup, or in the
 * curl commands a report offers. (report.html in a browser: tests/browser/hostile-report.test.ts.)
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownFindings, summarize } from './markdown-check.ts';
import { rawMarkupIn, runShellBlocks, sentinelsActed, shellBlocks, terminalFindings } from './output-checks.ts';
import { runAgainstHostile, type HostileRun } from './run-against-hostile.ts';
import { checkXml } from './strict-xml.ts';

/** A run that has not ended by then has hung: the CLI is stopped and the test fails. */
const boundMs = 60_000;

/** The first `n` of a list of findings, and how many there were, for a message that stays short. */
function firstOf(findings: readonly unknown[], n = 12): unknown {
  return findings.length <= n ? findings : [...findings.slice(0, n), `… ${findings.length - n} more`];
}

interface ReportJson {
  readonly requirements: ReadonlyArray<{
    readonly id: string;
    readonly verdict: string;
    readonly failures?: ReadonlyArray<{ readonly message: string }>;
  }>;
}

function describeHostileRun(title: string, deep: boolean): void {
  describe(title, () => {
    let run: HostileRun;
    const file = async (name: string): Promise<Buffer> => {
      const bytes = await run.read(name);
      if (bytes === undefined) {
        throw new Error(`${name} was not written (exit ${run.code}); the run said: ${tail(run.terminal)}`);
      }
      return bytes;
    };

    beforeAll(async () => {
      run = await runAgainstHostile({ deep, boundMs });
    }, boundMs + 30_000);

    afterAll(async () => {
      await run?.cleanup();
    });

    it('ends within the bound, with exit 1 or 2 (never 70) and a report', async () => {
      expect(run.timedOut, `still running after ${boundMs / 1000} s`).toBe(false);
      expect([1, 2], `exit ${run.code}; the run said: ${tail(run.terminal)}`).toContain(run.code);
      expect(JSON.parse((await file('report.json')).toString('utf8'))).toHaveProperty('requirements');
    });

    it('requests nothing outside the target’s origin: the canary gets no request', () => {
      expect(run.targetRequests).toBeGreaterThan(0);
      expect(run.canaryRequests).toEqual([]);
    });

    if (!deep) {
      it('judges the resultUrl on another host: RES-RESULT-URL-HOST-AND-PATH fails, naming the URL', async () => {
        const report = JSON.parse((await file('report.json')).toString('utf8')) as ReportJson;
        const requirement = report.requirements.find((r) => r.id === 'RES-RESULT-URL-HOST-AND-PATH');
        expect(requirement?.verdict).toBe('fail');
        expect(requirement?.failures?.some((f) => f.message.includes(run.canary.origin))).toBe(true);
      });
    }

    it('prints no ESC, BEL or C1 control to the terminal', () => {
      expect(terminalFindings(run.terminal)).toEqual([]);
    });

    it('writes report.md with no image, link or raw HTML from the target, and no ESC, BEL or C1 control', async () => {
      const markdown = (await file('report.md')).toString('utf8');
      expect(summarize(markdownFindings(markdown, [run.canary.origin]))).toEqual({});
    });

    it('appends the same to the GitHub step summary: no image, link or raw HTML, no control', async () => {
      const summary = await readFile(run.stepSummary, 'utf8');
      expect(summary.length, 'the step summary is empty').toBeGreaterThan(0);
      expect(summarize(markdownFindings(summary, [run.canary.origin]))).toEqual({});
    });

    it('writes a well-formed junit.xml (strict XML 1.0: strict-xml.ts)', async () => {
      expect(checkXml(await file('junit.xml'))).toEqual({ ok: true });
    });

    it('writes report.html with none of the target’s markup raw', async () => {
      expect(rawMarkupIn((await file('report.html')).toString('utf8'), run.canary.origin)).toEqual([]);
    });

    it('runs none of the target’s text, and offers curl commands that run none when pasted into bash', async () => {
      expect(sentinelsActed(run.sentinelDir), 'during the run').toEqual([]);
      const blocks = shellBlocks((await file('report.md')).toString('utf8'));
      expect(blocks.length, 'report.md offers no shell command').toBeGreaterThan(0);
      const outcome = runShellBlocks(blocks, run.sentinelDir);
      const seen = { acted: outcome.acted, unparsable: firstOf(outcome.unparsable, 3) };
      expect(seen).toEqual({ acted: [], unparsable: [] });
    });
  });
}

/** The end of what the run printed, for a failure message. */
function tail(terminal: Buffer): string {
  return JSON.stringify(terminal.toString('utf8').slice(-600));
}

describeHostileRun('a run against a target that answers with hostile text', false);
describeHostileRun('a run against a target that answers with hostile text and JSON 200,000 levels deep', true);
