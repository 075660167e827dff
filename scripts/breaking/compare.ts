/**
 * The changes between two OpenAPI documents that break existing clients. api-smart-diff classifies
 * every change (removed or renamed fields and operations, narrowed enums, new required request
 * fields, changed statuses and codes, tightened validators, ...); one rule is added on top: a
 * changed operationId breaks too, because the typed client's methods and the links name operations by it.
 */
import { apiCompare } from 'api-smart-diff';

export interface BreakingChange {
  /** JSON path of the change in the document, `/`-joined. */
  readonly path: string;
  readonly description: string;
}

type Doc = Record<string, unknown>;

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every breaking change from `released` to `current`, each described once. Neither input is changed. */
export function breakingChanges(released: unknown, current: unknown): BreakingChange[] {
  // api-smart-diff merges allOf in place: give it copies.
  const { diffs } = apiCompare(structuredClone(released), structuredClone(current));
  const found = diffs
    .filter((d) => d.type === 'breaking')
    .map((d) => {
      const path = d.path.map(String).join('/');
      return { path, description: d.description?.trim() || `${d.action} at ${path}` };
    });
  const all = [...found, ...renamedOperationIds(released, current)];
  const seen = new Set<string>();
  return all.filter((c) => {
    const key = `${c.path} ${c.description}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Operations present in both documents whose operationId changed or was dropped. */
export function renamedOperationIds(released: unknown, current: unknown): BreakingChange[] {
  const before = pathsOf(released);
  const after = pathsOf(current);
  const out: BreakingChange[] = [];
  for (const [path, item] of Object.entries(before)) {
    for (const method of methods) {
      const was = operationIdOf(item, method);
      const now = operationIdOf(after[path], method);
      if (was === undefined || !isObject(after[path]) || !isObject((after[path] as Doc)[method]) || was === now)
        continue;
      out.push({
        path: ['paths', path, method, 'operationId'].join('/'),
        description: `[Replaced] operationId \`${was}\` of ${method.toUpperCase()} ${path} with \`${now ?? '(none)'}\``,
      });
    }
  }
  return out;
}

function pathsOf(doc: unknown): Doc {
  return isObject(doc) && isObject(doc.paths) ? (doc.paths as Doc) : {};
}

function operationIdOf(item: unknown, method: string): string | undefined {
  if (!isObject(item)) return undefined;
  const operation = item[method];
  return isObject(operation) && typeof operation.operationId === 'string' ? operation.operationId : undefined;
}

function isObject(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
