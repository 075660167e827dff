/**
 * The Arazzo flows' own equipment: the committed images carry the scenario markers the flows rely
 * on, every flow has a mutant that exists, Respect's JSON log is read right, and report cells are
 * escaped. The flows themselves run in `npm run flows` (against serve) and `-- --mutants`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/contract/paths.ts';
import { isPng } from '../../src/fixtures/png-chunks.ts';
import { readScenarioMarker } from '../../src/fixtures/scenario-marker.ts';
import { flowImages } from '../../scripts/make-flow-images.ts';
import { mutants } from '../mutants/mutants.ts';
import { flowIds, flowMutants, flowsBrokenBy } from './flow-mutants.ts';
import { cell, flowsReport, killed } from './flows-report.ts';
import { arazzoFile, flowResults } from './respect.ts';

const arazzo = parse(readFileSync(arazzoFile, 'utf8')) as { workflows: Array<{ workflowId: string }> };

describe('the Arazzo flows', () => {
  it('are the six flows of the issue, plus the new-account helper', () => {
    expect(arazzo.workflows.map((w) => w.workflowId).sort()).toEqual([...flowIds, 'new-account'].sort());
  });

  it('each have a mutant of tests/mutants that breaks their rule', () => {
    for (const flow of flowIds) expect(mutants.map((m) => m.name)).toContain(flowMutants[flow]);
    expect(flowsBrokenBy('no-refund-on-failure')).toEqual(['failure-refunded']);
    expect(flowsBrokenBy('not-a-mutant')).toEqual([]);
  });

  it.each(Object.entries(flowImages))('upload %s, a PNG marked %s', (file, kind) => {
    const bytes = readFileSync(join(paths.root, 'arazzo', 'images', file));
    expect(isPng(bytes)).toBe(true);
    expect(readScenarioMarker(bytes)).toBe(kind === 'person' || kind === 'garment' ? undefined : kind);
    expect(bytes.length).toBeLessThan(16 * 1024);
  });

  it('name only images that exist', () => {
    const text = readFileSync(arazzoFile, 'utf8');
    const named = [...text.matchAll(/\$file\('images\/([^']+)'\)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const file of named) expect(Object.keys(flowImages)).toContain(file);
  });
});

describe('the Respect log', () => {
  const check = (name: string, passed: boolean, message = '') => ({ name, passed, message });
  const log = {
    files: {
      'tryon-flows.arazzo.yaml': {
        executedWorkflows: [
          {
            workflowId: 'upload-start-poll',
            status: 'success',
            executedSteps: [
              { type: 'step', stepId: 'poll', checks: [check('success criteria check', false)] },
              { type: 'step', stepId: 'poll', checks: [check('success criteria check', true)] },
            ],
          },
          {
            workflowId: 'failure-refunded',
            status: 'error',
            executedSteps: [
              {
                type: 'workflow',
                stepId: 'account',
                executedSteps: [{ type: 'step', stepId: 'createAccount', checks: [check('status code check', true)] }],
              },
              {
                type: 'step',
                stepId: 'balance',
                checks: [check('success criteria check', false, '\u001b[0m\ncredits == 5\nmore')],
              },
            ],
          },
        ],
      },
    },
  };

  it('counts a poll that was retried and then passed as passed, and names the failed check', () => {
    expect(flowResults(log)).toEqual([
      { workflowId: 'upload-start-poll', passed: true, failures: [] },
      { workflowId: 'failure-refunded', passed: false, failures: ['balance: success criteria check — credits == 5'] },
    ]);
  });

  it('reads a log without files as no results', () => {
    expect(flowResults({})).toEqual([]);
  });
});

describe('the flows report', () => {
  const failed = { workflowId: 'failure-refunded', passed: false, failures: ['balance: check — x'] };
  const passed = { workflowId: 'failure-refunded', passed: true, failures: [] };

  it('counts a mutant killed only when its own flow failed', () => {
    const row = { mutant: 'no-refund-on-failure', flows: ['failure-refunded'], seconds: 1 };
    expect(killed({ ...row, results: [failed] })).toBe(true);
    expect(killed({ ...row, results: [passed] })).toBe(false);
    expect(flowsReport([passed], 1, [{ ...row, results: [passed] }])).toContain('PASSED (survived)');
  });

  it('escapes a table cell', () => {
    expect(cell('a|b\n<script>`x`')).toBe("a\\|b &lt;script&gt;'x'");
  });
});
