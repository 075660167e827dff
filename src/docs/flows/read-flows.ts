/**
 * The Arazzo flows (arazzo/tryon-flows.arazzo.yaml) as the docs draw them: each workflow's steps,
 * with the HTTP call each makes (method and path, from the OpenAPI source it names), what it expects
 * back, and whether it polls. A step that runs another workflow carries that workflow's steps.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { isObject, type Json, type JsonObject, listOperations } from '../../contract/openapi.ts';
import { paths } from '../../contract/paths.ts';

/** Where the flows are described. */
export const arazzoPath = join(paths.root, 'arazzo', 'tryon-flows.arazzo.yaml');

export interface FlowStep {
  readonly stepId: string;
  readonly description: string;
  /** The source description called: `tryon` (the API) or `control` (test control). */
  readonly source: string;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** Success criteria, as written (`$statusCode == 200`, a regex on a field, ...). */
  readonly expects: readonly string[];
  /** Seconds between attempts when the step polls (retries while pending), else undefined. */
  readonly pollEverySeconds?: number;
  /** The workflow a step runs instead of an operation, with its steps. */
  readonly workflow?: { readonly id: string; readonly steps: readonly FlowStep[] };
}

export interface Flow {
  readonly id: string;
  readonly summary: string;
  readonly description: string;
  readonly steps: readonly FlowStep[];
}

/** Every workflow of the Arazzo file, helpers included, in file order. */
export function readFlows(file: string = arazzoPath): Flow[] {
  const doc = parse(readFileSync(file, 'utf8'), { merge: true }) as Json;
  if (!isObject(doc) || !Array.isArray(doc.workflows)) throw new Error(`${file}: no workflows`);
  const sources = sourcesOf(doc, file);
  const components = isObject(doc.components) ? doc.components : {};
  const raw = doc.workflows.filter(isObject);
  const byId = new Map(raw.map((w) => [String(w.workflowId), w]));
  const build = (w: JsonObject, depth: number): Flow => ({
    id: String(w.workflowId),
    summary: text(w.summary),
    description: text(w.description),
    steps: (Array.isArray(w.steps) ? w.steps : []).filter(isObject).map((s) => {
      const child = typeof s.workflowId === 'string' ? byId.get(s.workflowId) : undefined;
      if (child !== undefined) {
        if (depth > 4) throw new Error(`${file}: workflows nest too deep at ${String(s.stepId)}`);
        const nested = build(child, depth + 1);
        return { ...blank(s), workflow: { id: nested.id, steps: nested.steps } };
      }
      return stepOf(s, sources, components, file);
    }),
  });
  return raw.map((w) => build(w, 0));
}

function blank(s: JsonObject): FlowStep {
  return {
    stepId: String(s.stepId),
    description: text(s.description),
    source: '',
    operationId: '',
    method: '',
    path: '',
    expects: [],
  };
}

function stepOf(s: JsonObject, sources: Map<string, JsonObject>, components: JsonObject, file: string): FlowStep {
  const match = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(text(s.operationId));
  const source = match?.[1] ?? '';
  const operationId = match?.[2] ?? '';
  const op = listOperations(sources.get(source) ?? {}).find((o) => o.operationId === operationId);
  if (op === undefined) throw new Error(`${file}: step ${String(s.stepId)} calls no known operation`);
  const expects = (Array.isArray(s.successCriteria) ? s.successCriteria : [])
    .filter(isObject)
    .map((c) => (c.type === 'regex' ? `${text(c.context)} matches ${text(c.condition)}` : text(c.condition)));
  const poll = retryOf(s, components);
  return {
    ...blank(s),
    source,
    operationId,
    method: op.method.toUpperCase(),
    path: op.path,
    expects,
    ...(poll !== undefined && { pollEverySeconds: poll }),
  };
}

/** The retry interval of a step's first `retry` failure action (inline or a components reference). */
function retryOf(s: JsonObject, components: JsonObject): number | undefined {
  const actions = (Array.isArray(s.onFailure) ? s.onFailure : []).filter(isObject).map((a) => {
    const ref = /^\$components\.failureActions\.(.+)$/.exec(text(a.reference));
    const shared = isObject(components.failureActions) ? components.failureActions : {};
    const resolved = ref?.[1] === undefined ? a : shared[ref[1]];
    return isObject(resolved) ? resolved : {};
  });
  const retry = actions.find((a) => a.type === 'retry');
  return retry === undefined ? undefined : Number(retry.retryAfter ?? 0);
}

function sourcesOf(doc: JsonObject, file: string): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  for (const source of (Array.isArray(doc.sourceDescriptions) ? doc.sourceDescriptions : []).filter(isObject)) {
    if (source.type !== 'openapi' || typeof source.url !== 'string') continue;
    const parsed = parse(readFileSync(resolve(dirname(file), source.url), 'utf8')) as Json;
    if (isObject(parsed)) out.set(String(source.name), parsed);
  }
  return out;
}

const text = (value: Json | undefined): string => (typeof value === 'string' ? value : '');
