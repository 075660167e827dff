/**
 * A sequence diagram of one flow as inline SVG, drawn from its Arazzo steps: the client, the API and
 * (when a flow uses it) the test-control extension as lifelines; per step a request arrow labelled
 * with its call and a dashed answer arrow labelled with what the step expects; a frame around a
 * step that polls and around the steps of a nested workflow. Plain SVG text, every label escaped.
 */
import { escapeHtml } from '../site/html-page.ts';
import type { Flow, FlowStep } from './read-flows.ts';

const width = 780;
const top = 56;
const rowHeight = 58;
const lanes: Readonly<Record<string, { x: number; title: string }>> = {
  client: { x: 90, title: 'Client' },
  tryon: { x: 430, title: 'Try-On API' },
  control: { x: 690, title: 'Test control' },
};

/** One drawn step, or a frame around drawn steps. */
type Row = { kind: 'step'; step: FlowStep } | { kind: 'frame'; label: string; rows: Row[] };

/** The diagram of `flow` as an `<svg>` element. */
export function sequenceSvg(flow: Flow): string {
  const rows = flow.steps.map(rowOf);
  const parts: string[] = [];
  const bottom = layout(rows, top + 20, 0, parts);
  const height = bottom + 30;
  const usesControl = flatten(flow.steps).some((s) => s.source === 'control');
  const shown = Object.entries(lanes).filter(([id]) => id !== 'control' || usesControl);
  const heads = shown.map(([, lane]) =>
    [
      `<rect x="${lane.x - 70}" y="10" width="140" height="30" rx="4" fill="#f6f8fa" stroke="#57606a"/>`,
      `<text x="${lane.x}" y="30" text-anchor="middle" font-weight="600">${escapeHtml(lane.title)}</text>`,
      `<line x1="${lane.x}" y1="40" x2="${lane.x}" y2="${height - 10}" stroke="#8c959f" stroke-dasharray="4 4"/>`,
    ].join(''),
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="sequence" role="img" width="${width}" height="${height}"`,
    ` viewBox="0 0 ${width} ${height}" font-family="system-ui,sans-serif" font-size="12" fill="#1f2328">`,
    `<title>${escapeHtml(`Sequence of ${flow.id}`)}</title>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto">',
    '<path d="M0 0L10 5L0 10z" fill="#1f2328"/></marker></defs>',
    ...heads,
    ...parts,
    '</svg>',
  ].join('\n');
}

function rowOf(step: FlowStep): Row {
  if (step.workflow) return { kind: 'frame', label: `ref ${step.workflow.id}`, rows: step.workflow.steps.map(rowOf) };
  if (step.pollEverySeconds !== undefined) {
    return {
      kind: 'frame',
      label: `loop every ${step.pollEverySeconds} s while pending`,
      rows: [{ kind: 'step', step }],
    };
  }
  return { kind: 'step', step };
}

/** Draws `rows` from `y` down, nested `depth` frames deep; returns the y below them. */
function layout(rows: readonly Row[], y: number, depth: number, out: string[]): number {
  let at = y;
  for (const row of rows) {
    if (row.kind === 'step') {
      out.push(stepSvg(row.step, at));
      at += rowHeight;
      continue;
    }
    const inset = 16 + depth * 8;
    const start = at;
    at = layout(row.rows, at + 22, depth + 1, out);
    out.push(
      `<rect x="${inset}" y="${start}" width="${width - 2 * inset}" height="${at - start}" fill="none" stroke="#bf8700"/>`,
      `<rect x="${inset}" y="${start}" width="${row.label.length * 6.6 + 16}" height="18" fill="#fff8c5" stroke="#bf8700"/>`,
      `<text x="${inset + 8}" y="${start + 13}" font-size="11">${escapeHtml(row.label)}</text>`,
    );
    at += 8;
  }
  return at;
}

function stepSvg(step: FlowStep, y: number): string {
  const from = lanes.client?.x ?? 0;
  const to = (lanes[step.source] ?? lanes.tryon)?.x ?? 0;
  const call = `${step.stepId}: ${step.method} ${step.path}`;
  const answer = clip(answerOf(step.expects), 62);
  return [
    `<text x="${from + 8}" y="${y + 10}">${escapeHtml(call)}</text>`,
    `<line x1="${from}" y1="${y + 16}" x2="${to}" y2="${y + 16}" stroke="#1f2328" marker-end="url(#arrow)"/>`,
    `<text x="${from + 8}" y="${y + 36}" fill="#57606a">${escapeHtml(answer)}</text>`,
    `<line x1="${to}" y1="${y + 42}" x2="${from}" y2="${y + 42}" stroke="#57606a" stroke-dasharray="5 3" marker-end="url(#arrow)"/>`,
  ].join('');
}

/** What a step expects back, short: the status first, then the other criteria. */
export function answerOf(expects: readonly string[]): string {
  const status = expects.map((e) => /^\$statusCode == (\d{3})$/.exec(e.trim())?.[1]).find(Boolean);
  const others = expects
    .filter((e) => !/^\$statusCode == \d{3}$/.test(e.trim()))
    .map((e) => e.replace(/\$response\.body#\//g, '').replace(/\$response\.header\./g, 'header '));
  return [status ?? 'answer', ...others].join(' · ');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function flatten(steps: readonly FlowStep[]): FlowStep[] {
  return steps.flatMap((s) => (s.workflow ? flatten(s.workflow.steps) : [s]));
}
