/** The flow pages' model and drawing: read from the Arazzo file, one arrow pair per step, every label escaped. */
import { describe, expect, it } from 'vitest';
import { readFlows, type Flow } from './read-flows.ts';
import { flowFile, renderFlowPage, renderFlowsIndex } from './render-flows.ts';
import { answerOf, sequenceSvg } from './sequence-svg.ts';

const flows = readFlows();

describe('readFlows', () => {
  it('reads every workflow, with calls resolved from the OpenAPI sources', () => {
    expect(flows.map((f) => f.id)).toContain('upload-start-poll');
    const flow = flows.find((f) => f.id === 'upload-start-poll');
    const poll = flow?.steps.find((s) => s.stepId === 'pollUntilSuccess');
    expect(poll).toMatchObject({ method: 'GET', path: '/tryons/{id}', source: 'tryon', pollEverySeconds: 2 });
    const account = flow?.steps.find((s) => s.stepId === 'account');
    expect(account?.workflow?.steps.map((s) => `${s.source} ${s.method} ${s.path}`)).toEqual([
      'control POST /accounts',
    ]);
  });
});

describe('sequenceSvg', () => {
  const hostile: Flow = {
    id: 'x"><script>alert(1)</script>',
    summary: '<b>bold</b>',
    description: 'Uses `<img src=x onerror=alert(1)>`.',
    steps: [
      {
        stepId: '<script>',
        description: '',
        source: 'tryon',
        operationId: 'getTryOn',
        method: 'GET',
        path: '/tryons/{id}',
        expects: ["$response.body#/status == '</text><script>'"],
      },
    ],
  };

  it('draws a request and an answer arrow per step', () => {
    const flow = flows.find((f) => f.id === 'failure-refunded');
    const svg = sequenceSvg(flow as Flow);
    const requests = svg.match(/<line [^>]*marker-end="url\(#arrow\)"\/>/g) ?? [];
    // 8 steps (one in the nested new-account): a solid request and a dashed answer each.
    expect(requests).toHaveLength(16);
    expect(svg).toContain('loop every 2 s while pending');
  });

  it('escapes every label and the page around it', () => {
    const svg = sequenceSvg(hostile);
    expect(svg).not.toMatch(/<script/);
    expect(svg).toContain('&lt;script&gt;');
    const page = renderFlowPage(hostile) + renderFlowsIndex([hostile]);
    expect(page).not.toMatch(/<script|<img|<b>/);
    expect(flowFile(hostile.id)).toMatch(/^flow-[A-Za-z0-9_-]+\.html$/);
  });

  it('summarises what a step expects, status first', () => {
    expect(answerOf(["$response.body#/code == 'RATE_LIMITED'", '$statusCode == 429'])).toBe(
      "429 · code == 'RATE_LIMITED'",
    );
    expect(answerOf([])).toBe('answer');
  });
});
