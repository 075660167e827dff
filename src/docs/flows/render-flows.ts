/**
 * The flow pages of the docs site: flows.html lists the Arazzo workflows, and flow-<id>.html shows
 * one with its sequence diagram (inline SVG), its steps and what each checks, and links to the code
 * samples of the operations it calls.
 */
import { escapeHtml, page, proseHtml } from '../site/html-page.ts';
import type { Flow, FlowStep } from './read-flows.ts';
import { sequenceSvg } from './sequence-svg.ts';

/** The page file of a flow. */
export const flowFile = (id: string): string => `flow-${id.replace(/[^A-Za-z0-9_-]/g, '_')}.html`;

/** flows.html: every flow, with its summary. */
export function renderFlowsIndex(flows: readonly Flow[]): string {
  const items = flows
    .map((f) => `<li><a href="${flowFile(f.id)}"><code>${escapeHtml(f.id)}</code></a>: ${escapeHtml(f.summary)}</li>`)
    .join('\n');
  const body = [
    '<h1>Flows</h1>',
    '<p>The sequences of calls the spec describes, from <code>arazzo/tryon-flows.arazzo.yaml</code>. Any Arazzo',
    'runner can execute them; <code>npm run flows</code> runs them with Redocly Respect against',
    '<code>tryon-conformance serve</code>.</p>',
    `<ul class="flows">${items}</ul>`,
  ].join('\n');
  return page('Flows — Virtual Try-On API', body);
}

/** One flow's page. */
export function renderFlowPage(flow: Flow): string {
  const rows = steps(flow.steps)
    .map(
      (s) =>
        `<tr><td><code>${escapeHtml(s.stepId)}</code></td><td>${callCell(s)}</td>` +
        `<td>${s.expects.map((e) => `<code>${escapeHtml(e)}</code>`).join('<br>')}${pollNote(s)}</td></tr>`,
    )
    .join('\n');
  const body = [
    `<h1>${escapeHtml(flow.summary || flow.id)}</h1>`,
    `<p>Workflow <code>${escapeHtml(flow.id)}</code> · <a href="flows.html">all flows</a></p>`,
    proseHtml(flow.description),
    `<figure>${sequenceSvg(flow)}</figure>`,
    '<h2>Steps</h2>',
    '<table><thead><tr><th>step</th><th>call</th><th>expects</th></tr></thead>',
    `<tbody>${rows}</tbody></table>`,
  ].join('\n');
  return page(`${flow.id} — Virtual Try-On flows`, body);
}

function steps(list: readonly FlowStep[]): FlowStep[] {
  return list.flatMap((s) => (s.workflow ? steps(s.workflow.steps) : [s]));
}

function callCell(s: FlowStep): string {
  const call = `<code>${escapeHtml(`${s.method} ${s.path}`)}</code>`;
  const where =
    s.source === 'control' ? ' (test control)' : ` · <a href="samples.html#${escapeHtml(s.operationId)}">samples</a>`;
  const note = s.description ? `<br>${escapeHtml(s.description.trim())}` : '';
  return `${call}${where}${note}`;
}

function pollNote(s: FlowStep): string {
  return s.pollEverySeconds === undefined ? '' : `<br>polled every ${s.pollEverySeconds} s while <code>pending</code>`;
}
